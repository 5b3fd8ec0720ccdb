import { PageHeader } from '@cbh/ui';

export function DomainManagementPage() {
  return (
    <PageHeader title="Domain Management" description="SSL certificates, DNS records, uptime monitoring and alerts for your domains." />
  );
}
