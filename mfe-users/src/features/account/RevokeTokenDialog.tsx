import { apiErrorMessage, useRevokeTokenMutation } from '@cbh/api-client';
import type { ApiTokenView } from '@cbh/contracts';
import { ConfirmActionDialog } from '../shared/ConfirmActionDialog';

/** Asks before revoking: scripts using the token stop working at once, and a revoked token cannot be restored. */
export function RevokeTokenDialog({ token, onClose }: { token: ApiTokenView; onClose: () => void }) {
  const [revoke, { isLoading }] = useRevokeTokenMutation();
  return (
    <ConfirmActionDialog
      title="Revoke token"
      description={`Revoke '${token.name}' (${token.prefix}…)? Anything still using it is refused from now on.`}
      confirmLabel="Revoke"
      pendingLabel="Revoking..."
      pending={isLoading}
      run={async () => {
        await revoke(token.id).unwrap();
        return { title: 'Token Revoked', description: `Token '${token.name}' no longer works.` };
      }}
      failure={(error) => apiErrorMessage(error) ?? 'Failed to revoke the token.'}
      onClose={onClose}
    />
  );
}
