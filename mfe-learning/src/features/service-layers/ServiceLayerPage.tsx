import { PageHeader } from '@cbh/ui';
import { LayerCards } from './LayerCards';

const SECTIONS = [
  {
    title: 'Business Rule Operations',
    description: 'Where the platform’s rules live, independent of HTTP and storage.',
    items: [
      { name: 'User management', detail: 'invitations, activation and the last-super-admin rule' },
      { name: 'Payment processing', detail: 'charges guarded by a breaker so a slow gateway cannot stall checkout' },
      { name: 'Role assignment', detail: 'default permissions per role, customised per user' },
    ],
  },
  {
    title: 'Circuit Breaker Integration',
    description: 'How services call what they depend on without failing with it.',
    items: [
      { name: 'Protected operations', detail: 'every outbound call goes through its service’s breaker' },
      { name: 'Fallback strategies', detail: 'a fast, clear answer while the breaker is open' },
      { name: 'State management', detail: 'CLOSED, OPEN and HALF_OPEN, shared by every replica' },
    ],
  },
];

export function ServiceLayerPage() {
  return (
    <>
      <PageHeader title="Service Layer" description="Business-rule operations and circuit-breaker integration." />
      <LayerCards sections={SECTIONS} />
    </>
  );
}
