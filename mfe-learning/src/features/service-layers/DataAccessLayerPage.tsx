import { PageHeader } from '@cbh/ui';
import { LayerCards } from './LayerCards';

const SECTIONS = [
  {
    title: 'Read Operations',
    description: 'Queries the screens and the API answer from.',
    items: [
      { name: 'User queries', detail: 'accounts, roles and permissions' },
      { name: 'Circuit breaker data', detail: 'configurations, transitions and metrics' },
      { name: 'Service data', detail: 'endpoints and the breakers that guard them' },
    ],
  },
  {
    title: 'Write Operations',
    description: 'Changes, each in a transaction with its audit entry.',
    items: [
      { name: 'Create', detail: 'new breakers, services, invitations' },
      { name: 'Update', detail: 'settings, roles, permissions, status' },
      { name: 'Delete', detail: 'removal with its journal and sessions' },
    ],
  },
];

export function DataAccessLayerPage() {
  return (
    <>
      <PageHeader title="Data Access Layer" description="Read and write operations over the platform's data." />
      <LayerCards sections={SECTIONS} />
    </>
  );
}
