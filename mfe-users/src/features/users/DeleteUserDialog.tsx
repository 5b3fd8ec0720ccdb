import { apiErrorMessage, useDeleteUserMutation } from '@cbh/api-client';
import type { UserView } from '@cbh/contracts';
import { ConfirmActionDialog } from '../shared/ConfirmActionDialog';
import { nameWithEmail } from './user-status';

/** Asks before deleting: the account and its sessions cannot be brought back. */
export function DeleteUserDialog({ user, onClose }: { user: UserView; onClose: () => void }) {
  const [deleteUser, { isLoading }] = useDeleteUserMutation();
  return (
    <ConfirmActionDialog
      title="Delete user"
      description={`Delete ${nameWithEmail(user)}? This removes the account and ends its sessions.`}
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      pending={isLoading}
      run={async () => {
        await deleteUser(user.id).unwrap();
        return { title: 'User Deleted', description: 'User removed from system.' };
      }}
      failure={(error) => apiErrorMessage(error) ?? 'Failed to delete user.'}
      onClose={onClose}
    />
  );
}
