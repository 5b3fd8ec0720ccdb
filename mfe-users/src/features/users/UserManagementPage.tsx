import { PageHeader } from '@cbh/ui';

export function UserManagementPage() {
  return <PageHeader title="User Management" description="Invite users, assign roles and permissions, and activate accounts." />;
}
