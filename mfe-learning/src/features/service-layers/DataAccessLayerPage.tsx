import { PageHeader } from '@cbh/ui';

export function DataAccessLayerPage() {
  return <PageHeader title="Data Access Layer" description="Read and write operations over the platform's data." />;
}
