import { PageHeader } from '@cbh/ui';

export function DashboardPage() {
  return <PageHeader title="Dashboard" description="Your circuit breakers, requests, domains and system status at a glance." />;
}
