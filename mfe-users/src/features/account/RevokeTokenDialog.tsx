import { apiErrorMessage, useRevokeTokenMutation } from '@cbh/api-client';
import type { ApiTokenView } from '@cbh/contracts';
import { toast } from '@cbh/ui';
import { ConfirmDialog } from '@cbh/ui/overlays';

/** Asks before revoking: scripts using the token stop working at once, and a revoked token cannot be restored. */
export function RevokeTokenDialog({ token, onClose }: { token: ApiTokenView; onClose: () => void }) {
  const [revoke, { isLoading }] = useRevokeTokenMutation();

  const confirm = async () => {
    try {
      await revoke(token.id).unwrap();
      toast({ title: 'Token Revoked', description: `Token '${token.name}' no longer works.` });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to revoke the token.', variant: 'destructive' });
    }
    onClose();
  };

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Revoke token"
      description={`Revoke '${token.name}' (${token.prefix}…)? Anything still using it is refused from now on.`}
      confirmLabel="Revoke"
      pendingLabel="Revoking..."
      pending={isLoading}
      onConfirm={confirm}
    />
  );
}
