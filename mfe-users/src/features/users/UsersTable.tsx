import { useState } from 'react';
import styled from 'styled-components';
import { accountChangeRefusal, type AuthUser, type UserView } from '@cbh/contracts';
import { DataTable, formatDate, formatDateTime, Muted, RoleBadge, theme, VisuallyHidden } from '@cbh/ui';
import { DeleteUserDialog } from './DeleteUserDialog';
import { EndSessionsDialog } from './EndSessionsDialog';
import { PermissionsDialog } from './PermissionsDialog';
import { RoleDialog } from './RoleDialog';
import { RowAction } from './RowAction';
import { displayName, initialOf } from './user-status';
import { UserStatusBadge } from './UserStatusBadge';
import { OWN_STATUS_REASON, UserStatusSwitch } from './UserStatusSwitch';

const USER_COLUMNS = ['User', 'Role', 'Status', 'Last Login', 'Joined', 'Actions'];

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

const Actions = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
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

/**
 * Every account, with buttons to change its role, permissions and status, end its sessions, or delete it; on an account the
 * signed-in user may not change (the server's rule, from @cbh/contracts) they are disabled with the reason.
 */
export function UsersTable({ users, me }: { users: readonly UserView[]; me: AuthUser }) {
  const [editing, setEditing] = useState<Editing>(null);
  const close = () => setEditing(null);

  if (users.length === 0) return <Muted>No users yet. Invite someone to get started.</Muted>;

  return (
    <>
      <DataTable label="Users" minWidth={980} columns={USER_COLUMNS}>
        {users.map((user) => {
          const isSelf = user.id === me.id;
          const refusal = accountChangeRefusal(me, user);
          const who = <VisuallyHidden> for {user.email}</VisuallyHidden>;
          return (
            <tr key={user.id} data-testid={`user-row-${user.id}`}>
              <td>
                <UserCell user={user} />
              </td>
              <td>
                <RoleBadge role={user.role} />
              </td>
              <td>
                <UserStatusBadge user={user} />
              </td>
              <td>{user.lastLoginAt ? <time dateTime={user.lastLoginAt}>{formatDateTime(user.lastLoginAt)}</time> : 'Never'}</td>
              <td>
                <time dateTime={user.createdAt}>{formatDate(user.createdAt)}</time>
              </td>
              <td>
                <Actions>
                  <RowAction reason={refusal} variant="outline" onClick={() => setEditing({ kind: 'role', user })}>
                    Role{who}
                  </RowAction>
                  <RowAction reason={refusal} variant="outline" onClick={() => setEditing({ kind: 'permissions', user })}>
                    Permissions{who}
                  </RowAction>
                  <UserStatusSwitch user={user} disabledReason={isSelf ? OWN_STATUS_REASON : refusal} />
                  <RowAction
                    reason={isSelf ? OWN_SESSIONS_REASON : refusal}
                    variant="outline"
                    onClick={() => setEditing({ kind: 'sessions', user })}
                  >
                    End sessions{who}
                  </RowAction>
                  <RowAction
                    reason={isSelf ? OWN_DELETE_REASON : refusal}
                    variant="ghost"
                    onClick={() => setEditing({ kind: 'delete', user })}
                  >
                    Delete{who}
                  </RowAction>
                </Actions>
              </td>
            </tr>
          );
        })}
      </DataTable>
      {editing?.kind === 'role' ? <RoleDialog key={editing.user.id} user={editing.user} onClose={close} /> : null}
      {editing?.kind === 'permissions' ? <PermissionsDialog key={editing.user.id} user={editing.user} onClose={close} /> : null}
      {editing?.kind === 'sessions' ? <EndSessionsDialog key={editing.user.id} user={editing.user} onClose={close} /> : null}
      {editing?.kind === 'delete' ? <DeleteUserDialog key={editing.user.id} user={editing.user} onClose={close} /> : null}
    </>
  );
}
