import { apiErrorMessage, useDeleteServiceAccountMutation } from '@cbh/api-client';
import type { ServiceAccountView } from '@cbh/contracts';
import { plural, toast } from '@cbh/ui';
import { ConfirmDialog } from '@cbh/ui/overlays';

/** Asks before deleting: the account and its tokens cannot be brought back. */
export function DeleteServiceAccountDialog({ account, onClose }: { account: ServiceAccountView; onClose: () => void }) {
  const [remove, { isLoading }] = useDeleteServiceAccountMutation();
  const confirm = async () => {
    try {
      await remove(account.id).unwrap();
      toast({ title: 'Service Account Deleted', description: `${account.name} and its tokens were removed.` });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to delete the service account.', variant: 'destructive' });
    }
    onClose();
  };
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Delete service account"
      description={`Delete ${account.name}? This removes the account and its ${plural(account.tokenCount, 'token')}, which stop working at once.`}
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      pending={isLoading}
      onConfirm={confirm}
    />
  );
}
