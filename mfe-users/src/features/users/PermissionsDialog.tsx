import { useState } from 'react';
import styled from 'styled-components';
import { failureText, useUpdateUserPermissionsMutation } from '@cbh/api-client';
import { PERMISSIONS, type Permission, type UserView } from '@cbh/contracts';
import { Muted, theme, toast } from '@cbh/ui';
import { Switch } from '@cbh/ui/overlays';
import { EditDialog } from '../shared/EditDialog';
import { PermissionGrid, togglePermission } from '../shared/permission-grid';
import { displayName } from './user-status';
import { PermissionBadges, PermissionName, permissionText } from '../shared/PermissionName';

const Summary = styled.section`
  padding: 12px;
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  h3 {
    margin: 0 0 8px;
    font-size: 14px;
  }
`;

/** Customises one user's permissions, one switch per assignable permission. */
export function PermissionsDialog({ user, onClose }: { user: UserView; onClose: () => void }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set(user.permissions));
  const [updatePermissions, { isLoading }] = useUpdateUserPermissionsMutation();
  // kept in the canonical order, and limited to known names so a stale entry cannot be sent back
  const chosen: Permission[] = PERMISSIONS.filter((permission) => selected.has(permission));

  const toggle = (permission: Permission, on: boolean) => setSelected((current) => togglePermission(current, permission, on));

  const submit = async () => {
    try {
      await updatePermissions({ id: user.id, permissions: chosen }).unwrap();
      toast({ title: 'Permissions Updated', description: 'User permissions updated successfully.' });
      onClose();
    } catch (error) {
      toast({ title: 'Error', description: failureText('Failed to update permissions.', error), variant: 'destructive' });
    }
  };

  return (
    <EditDialog
      title="Edit User Permissions"
      description={`Choose what ${displayName(user)} may do.`}
      formLabel="Edit user permissions"
      saveLabel="Save Permissions"
      saving={isLoading}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <PermissionGrid $rowGap={10} $item="li">
        {PERMISSIONS.map((permission) => (
          <li key={permission}>
            <Switch
              id={`permission-${permission}`}
              label={permissionText(permission)}
              checked={selected.has(permission)}
              onCheckedChange={(on) => toggle(permission, on)}
            />
            <label htmlFor={`permission-${permission}`}>
              <PermissionName permission={permission} />
            </label>
          </li>
        ))}
      </PermissionGrid>
      <Summary aria-label="Selected permissions">
        <h3>Selected permissions ({chosen.length})</h3>
        {chosen.length > 0 ? <PermissionBadges permissions={chosen} /> : <Muted>No permissions selected</Muted>}
      </Summary>
    </EditDialog>
  );
}
