import { useState } from 'react';
import styled from 'styled-components';
import { accountChangeRefusal, type AuthUser, type UserView } from '@cbh/contracts';
import { apiErrorMessage } from '@cbh/api-client';
import { Muted, ResponsiveTable, RoleBadge, theme, When, type RowAction, type TableColumn } from '@cbh/ui';
import { DeleteUserDialog } from './DeleteUserDialog';
import { EndSessionsDialog } from './EndSessionsDialog';
import { PermissionsDialog } from './PermissionsDialog';
import { RoleDialog } from './RoleDialog';
import { displayName, initialOf } from './user-status';
import { useGetUsersPageQuery } from './users-api';
import { UserStatusBadge } from './UserStatusBadge';
import { OWN_STATUS_REASON, UserStatusSwitch } from './UserStatusSwitch';

/** Accounts a page. */
export const USERS_PAGE_SIZE = 25;

export const OWN_DELETE_REASON = 'You cannot delete your own account';
export const OWN_SESSIONS_REASON = 'You cannot end your own sessions here';

const Person = styled.div`
  display: flex;
  align-items: center;
  gap: 10px;
  min-width: 0;
`;

const AVATAR_PX = 36;

const Avatar = styled.img`
  width: ${AVATAR_PX}px;
  height: ${AVATAR_PX}px;
  flex: none;
  border-radius: 50%;
  object-fit: cover;
`;

const Initial = styled.span`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: ${AVATAR_PX}px;
  height: ${AVATAR_PX}px;
  flex: none;
  border-radius: 50%;
  font-weight: 600;
  color: ${theme.colors.primaryText};
  background: ${theme.colors.primary};
`;

const Name = styled.div`
  font-weight: 500;
`;

const Email = styled.div`
  font-size: 13px;
  color: ${theme.colors.muted};
`;

type Editing = { kind: 'role' | 'permissions' | 'sessions' | 'delete'; user: UserView } | null;

function UserCell({ user }: { user: UserView }) {
  const name = displayName(user);
  return (
    <Person>
      {user.profileImageUrl ? (
        <Avatar src={user.profileImageUrl} alt={`Avatar of ${name}`} width={AVATAR_PX} height={AVATAR_PX} />
      ) : (
        <Initial aria-hidden>{initialOf(user)}</Initial>
      )}
      <div>
        <Name>{name}</Name>
        {name !== user.email ? <Email>{user.email}</Email> : null}
      </div>
    </Person>
  );
}

const COLUMNS: readonly TableColumn<UserView>[] = [
  { header: 'User', cell: (user) => <UserCell user={user} /> },
  { header: 'Role', cell: (user) => <RoleBadge role={user.role} /> },
  { header: 'Status', cell: (user) => <UserStatusBadge user={user} />, priority: 2 },
  { header: 'Last Login', cell: (user) => <When at={user.lastLoginAt} />, priority: 2, nowrap: true },
  { header: 'Joined', cell: (user) => <When at={user.createdAt} />, priority: 3, nowrap: true },
];

/**
 * The accounts, a page at a time, searched by the server, each with its status switch and a menu to change its role
 * and permissions, end its sessions or delete it; on an account the signed-in user may not change (the server's rule,
 * from @cbh/contracts) those are disabled with the reason.
 */
export function UsersTable({ me }: { me: AuthUser }) {
  const [editing, setEditing] = useState<Editing>(null);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const close = () => setEditing(null);
  const query = { search: search || undefined, limit: USERS_PAGE_SIZE, offset: (page - 1) * USERS_PAGE_SIZE };
  const { data, isError, error } = useGetUsersPageQuery(query);

  const actions = (user: UserView): RowAction[] => {
    const isSelf = user.id === me.id;
    const refusal = accountChangeRefusal(me, user);
    return [
      { label: 'Change role', disabledReason: refusal, onSelect: () => setEditing({ kind: 'role', user }) },
      { label: 'Permissions', disabledReason: refusal, onSelect: () => setEditing({ kind: 'permissions', user }) },
      {
        label: 'End sessions',
        disabledReason: isSelf ? OWN_SESSIONS_REASON : refusal,
        onSelect: () => setEditing({ kind: 'sessions', user }),
      },
      {
        label: 'Delete',
        danger: true,
        disabledReason: isSelf ? OWN_DELETE_REASON : refusal,
        onSelect: () => setEditing({ kind: 'delete', user }),
      },
    ];
  };

  if (!data) {
    return isError ? (
      <Muted role="alert">The users could not be loaded. {apiErrorMessage(error) ?? ''}</Muted>
    ) : (
      <Muted role="status">Loading users…</Muted>
    );
  }
  // the last account of the last page deleted: show the page before
  if (data.users.length === 0 && page > 1 && data.total > 0) setPage(Math.ceil(data.total / USERS_PAGE_SIZE));

  return (
    <>
      <ResponsiveTable
        label="Users"
        searchLabel="Search users by name or e-mail"
        rows={data.users}
        rowKey={(user) => user.id}
        rowName={(user) => user.email}
        rowTestId={(user) => `user-row-${user.id}`}
        columns={COLUMNS}
        inline={(user) => (
          <UserStatusSwitch user={user} disabledReason={user.id === me.id ? OWN_STATUS_REASON : accountChangeRefusal(me, user)} />
        )}
        actions={actions}
        empty={search ? `No user matches “${search}”.` : 'No users yet. Invite someone to get started.'}
        onSearch={(text) => {
          setSearch(text);
          setPage(1);
        }}
        paging={{ page, pageSize: USERS_PAGE_SIZE, total: data.total, onPage: setPage }}
      />
      {editing?.kind === 'role' ? <RoleDialog key={editing.user.id} user={editing.user} onClose={close} /> : null}
      {editing?.kind === 'permissions' ? <PermissionsDialog key={editing.user.id} user={editing.user} onClose={close} /> : null}
      {editing?.kind === 'sessions' ? <EndSessionsDialog key={editing.user.id} user={editing.user} onClose={close} /> : null}
      {editing?.kind === 'delete' ? <DeleteUserDialog key={editing.user.id} user={editing.user} onClose={close} /> : null}
    </>
  );
}
