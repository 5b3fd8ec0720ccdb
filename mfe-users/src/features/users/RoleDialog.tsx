import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { failureText, useUpdateUserRoleMutation } from '@cbh/api-client';
import { isRole, ROLE_DEFAULT_PERMISSIONS, type Role, type UserView } from '@cbh/contracts';
import { Button, RoleBadge, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';
import { displayName } from './user-status';
import { RoleField } from './RoleField';

const Form = styled.form`
  display: grid;
  gap: 16px;
`;

/** Changes a user's role. Opened for one user at a time; closing it clears the choice. */
export function RoleDialog({ user, onClose }: { user: UserView; onClose: () => void }) {
  const [role, setRole] = useState<Role>(isRole(user.role) ? user.role : 'viewer');
  const [updateRole, { isLoading }] = useUpdateUserRoleMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
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
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Edit User Role"
      description={`Choose the role of ${displayName(user)}. Its default permissions replace the current ones.`}
    >
      <Form onSubmit={submit} aria-label="Edit user role">
        <p>
          Current role: <RoleBadge role={user.role} />
        </p>
        <RoleField value={role} onChange={setRole} />
        <DialogActions>
          <Button type="button" $variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={isLoading}>
            {isLoading ? 'Saving...' : 'Save'}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
