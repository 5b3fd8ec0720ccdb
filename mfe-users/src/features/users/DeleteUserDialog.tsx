import { apiErrorMessage, useDeleteUserMutation } from '@cbh/api-client';
import type { UserView } from '@cbh/contracts';
import { toast } from '@cbh/ui';
import { ConfirmDialog } from '@cbh/ui/overlays';
import { nameWithEmail } from './user-status';

/** Asks before deleting: the account and its sessions cannot be brought back. */
export function DeleteUserDialog({ user, onClose }: { user: UserView; onClose: () => void }) {
  const [deleteUser, { isLoading }] = useDeleteUserMutation();

  const confirm = async () => {
    try {
      await deleteUser(user.id).unwrap();
      toast({ title: 'User Deleted', description: 'User removed from system.' });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to delete user.', variant: 'destructive' });
    }
    onClose();
  };

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Delete user"
      description={`Delete ${nameWithEmail(user)}? This removes the account and ends its sessions.`}
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      pending={isLoading}
      onConfirm={confirm}
    />
  );
}
