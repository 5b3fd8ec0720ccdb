import { apiErrorMessage, useDeleteServiceAccountMutation } from '@cbh/api-client';
import type { ServiceAccountView } from '@cbh/contracts';
import { plural } from '@cbh/ui';
import { ConfirmActionDialog } from '../shared/ConfirmActionDialog';

/** Asks before deleting: the account and its tokens cannot be brought back. */
export function DeleteServiceAccountDialog({ account, onClose }: { account: ServiceAccountView; onClose: () => void }) {
  const [remove, { isLoading }] = useDeleteServiceAccountMutation();
  return (
    <ConfirmActionDialog
      title="Delete service account"
      description={`Delete ${account.name}? This removes the account and its ${plural(account.tokenCount, 'token')}, which stop working at once.`}
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      pending={isLoading}
      run={async () => {
        await remove(account.id).unwrap();
        return { title: 'Service Account Deleted', description: `${account.name} and its tokens were removed.` };
      }}
      failure={(error) => apiErrorMessage(error) ?? 'Failed to delete the service account.'}
      onClose={onClose}
    />
  );
}
