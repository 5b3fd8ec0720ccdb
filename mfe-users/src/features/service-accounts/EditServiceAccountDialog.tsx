import { useState } from 'react';
import { failureText, useUpdateServiceAccountMutation } from '@cbh/api-client';
import { isRole, PERMISSIONS, ROLE_DEFAULT_PERMISSIONS, type Permission, type Role, type ServiceAccountView } from '@cbh/contracts';
import { toast } from '@cbh/ui';
import { EditDialog } from '../shared/EditDialog';
import { PermissionToggles } from '../tokens/PermissionToggles';
import { RoleField } from '../users/RoleField';

const held = (account: ServiceAccountView) => new Set(PERMISSIONS.filter((permission) => account.permissions.includes(permission)));

/**
 * Changes a service account's role and permissions: choosing a role starts from that role's default permissions, which
 * can then be customised one by one. Its tokens keep only what the account still holds.
 */
export function EditServiceAccountDialog({ account, onClose }: { account: ServiceAccountView; onClose: () => void }) {
  const [role, setRole] = useState<Role>(isRole(account.role) ? account.role : 'viewer');
  const [selected, setSelected] = useState<Set<Permission>>(() => held(account));
  const [update, { isLoading }] = useUpdateServiceAccountMutation();

  const chooseRole = (next: Role) => {
    setRole(next);
    setSelected(new Set(ROLE_DEFAULT_PERMISSIONS[next]));
  };
  const submit = async () => {
    try {
      const permissions = PERMISSIONS.filter((permission) => selected.has(permission));
      await update({ id: account.id, role, permissions }).unwrap();
      toast({ title: 'Service Account Updated', description: `${account.name}'s role and permissions are saved.` });
      onClose();
    } catch (error) {
      toast({ title: 'Error', description: failureText('Failed to update the service account.', error), variant: 'destructive' });
    }
  };

  return (
    <EditDialog
      title="Edit Service Account"
      description={`Choose the role and permissions of ${account.name}.`}
      formLabel="Edit service account"
      saving={isLoading}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <RoleField value={role} onChange={chooseRole} />
      <PermissionToggles allowed={PERMISSIONS} selected={selected} onChange={setSelected} />
    </EditDialog>
  );
}
