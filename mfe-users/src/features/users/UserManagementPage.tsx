import { apiErrorMessage, useGetAuthUserQuery } from '@cbh/api-client';
import { canManageUsers, hasPermission, type AuthUser } from '@cbh/contracts';
import { Muted, PermittedPage } from '@cbh/ui';
import { Tabs, type TabItem } from '@cbh/ui/overlays';
import { SystemSettings } from '../system/SystemSettings';
import { ServiceAccountsTab } from '../service-accounts/ServiceAccountsTab';
import { AccessRestricted } from './AccessRestricted';
import { AuditLog } from './AuditLog';
import { InviteUserDialog } from './InviteUserDialog';
import { OrganizationSettings } from './OrganizationSettings';
import { PermissionMatrix } from './PermissionMatrix';
import { RoleManagement } from './RoleManagement';
import { useGetUserSummaryQuery } from './users-api';
import { UsersTable } from './UsersTable';
import { UserStatCards } from './UserStatCards';

const TITLE = 'User Management';
const DESCRIPTION = 'Invite users, assign roles and permissions, and activate accounts.';

function UsersScreen({ me, summary }: { me: AuthUser; summary: ReturnType<typeof useGetUserSummaryQuery> }) {
  if (!summary.data) {
    return summary.isError ? (
      <Muted role="alert">The users could not be loaded. {apiErrorMessage(summary.error) ?? ''}</Muted>
    ) : (
      <Muted role="status">Loading users…</Muted>
    );
  }

  const tabs: TabItem[] = [
    { value: 'users', label: 'All Users', content: <UsersTable me={me} /> },
    { value: 'roles', label: 'Role Management', content: <RoleManagement byRole={summary.data.byRole} /> },
    { value: 'permissions', label: 'Permissions', content: <PermissionMatrix /> },
    { value: 'service-accounts', label: 'Service Accounts', content: <ServiceAccountsTab me={me} /> },
  ];
  if (hasPermission(me, 'audit_access')) tabs.push({ value: 'audit', label: 'Audit Log', content: <AuditLog /> });
  if (hasPermission(me, 'organization_admin'))
    tabs.push({ value: 'organisation', label: 'Organisation', content: <OrganizationSettings /> });
  if (hasPermission(me, 'system_admin')) tabs.push({ value: 'system', label: 'System', content: <SystemSettings /> });

  return (
    <>
      <UserStatCards summary={summary.data} />
      <Tabs tabs={tabs} label="User management sections" />
    </>
  );
}

export function UserManagementPage() {
  const { data: me, isLoading } = useGetAuthUserQuery();
  // without access (or before we know), no users call is made at all
  const summary = useGetUserSummaryQuery(undefined, { skip: !canManageUsers(me) });
  return (
    <PermittedPage
      title={TITLE}
      description={DESCRIPTION}
      actions={<InviteUserDialog />}
      user={me}
      loading={isLoading}
      allows={canManageUsers}
      restricted={<AccessRestricted />}
    >
      {(user) => <UsersScreen me={user} summary={summary} />}
    </PermittedPage>
  );
}
