import { useState } from 'react';
import { failureText, useUpdateUserRoleMutation } from '@cbh/api-client';
import { isRole, ROLE_DEFAULT_PERMISSIONS, type Role, type UserView } from '@cbh/contracts';
import { RoleBadge, toast } from '@cbh/ui';
import { EditDialog } from '../shared/EditDialog';
import { displayName } from './user-status';
import { RoleField } from './RoleField';

/** Changes a user's role. Opened for one user at a time; closing it clears the choice. */
export function RoleDialog({ user, onClose }: { user: UserView; onClose: () => void }) {
  const [role, setRole] = useState<Role>(isRole(user.role) ? user.role : 'viewer');
  const [updateRole, { isLoading }] = useUpdateUserRoleMutation();

  const submit = async () => {
    try {
      // a new role starts from that role's default permissions; they can be customised afterwards
      await updateRole({ id: user.id, role, permissions: ROLE_DEFAULT_PERMISSIONS[role] }).unwrap();
      toast({ title: 'User Updated', description: 'User information updated successfully.' });
      onClose();
    } catch (error) {
      toast({ title: 'Error', description: failureText('Failed to update user.', error), variant: 'destructive' });
    }
  };

  return (
    <EditDialog
      title="Edit User Role"
      description={`Choose the role of ${displayName(user)}. Its default permissions replace the current ones.`}
      formLabel="Edit user role"
      saving={isLoading}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <p>
        Current role: <RoleBadge role={user.role} />
      </p>
      <RoleField value={role} onChange={setRole} />
    </EditDialog>
  );
}
