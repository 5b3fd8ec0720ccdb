import { PageHeader } from '@cbh/ui';

export function ServiceLayerPage() {
  return <PageHeader title="Service Layer" description="Business-rule operations and circuit-breaker integration." />;
}
