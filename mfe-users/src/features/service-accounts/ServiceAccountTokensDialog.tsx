import { useState } from 'react';
import { apiErrorMessage, useGetServiceAccountTokensQuery, useRevokeServiceAccountTokenMutation } from '@cbh/api-client';
import type { ApiTokenView, ServiceAccountView } from '@cbh/contracts';
import { DataTable, formatDate, formatDateTime, Muted, VisuallyHidden } from '@cbh/ui';
import { Dialog } from '@cbh/ui/overlays';
import { ConfirmActionDialog } from '../shared/ConfirmActionDialog';
import { RowAction } from '../users/RowAction';

const TOKEN_COLUMNS = ['Name', 'Prefix', 'Expires', 'Last used', ''];

/** Asks before revoking: whatever uses the token stops working at once. */
function RevokeTokenDialog({ account, token, onClose }: { account: ServiceAccountView; token: ApiTokenView; onClose: () => void }) {
  const [revoke, { isLoading }] = useRevokeServiceAccountTokenMutation();
  return (
    <ConfirmActionDialog
      title="Revoke token"
      description={`Revoke ${token.name} (${token.prefix}…) of ${account.name}? Whatever uses it stops working at once.`}
      confirmLabel="Revoke"
      pendingLabel="Revoking..."
      pending={isLoading}
      run={async () => {
        await revoke({ id: account.id, tokenId: token.id }).unwrap();
        return { title: 'Token Revoked', description: `${token.name} (${token.prefix}…) no longer works.` };
      }}
      failure={(error) => apiErrorMessage(error) ?? 'Failed to revoke the token.'}
      onClose={onClose}
    />
  );
}

/** A service account's tokens (never their secrets), each revocable unless `refusal` says why not. */
export function ServiceAccountTokensDialog({
  account,
  refusal,
  onClose,
}: {
  account: ServiceAccountView;
  refusal: string | null;
  onClose: () => void;
}) {
  const tokens = useGetServiceAccountTokensQuery(account.id);
  const [revoking, setRevoking] = useState<ApiTokenView | null>(null);

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title={`Tokens of ${account.name}`} wide>
      {tokens.isError ? (
        <Muted role="alert">The tokens could not be loaded. {apiErrorMessage(tokens.error) ?? ''}</Muted>
      ) : !tokens.data ? (
        <Muted role="status">Loading tokens…</Muted>
      ) : tokens.data.length === 0 ? (
        <Muted>No tokens yet.</Muted>
      ) : (
        <DataTable label={`Tokens of ${account.name}`} minWidth={560} columns={TOKEN_COLUMNS}>
          {tokens.data.map((token) => (
            <tr key={token.id}>
              <td>{token.name}</td>
              <td>
                <code>{token.prefix}…</code>
              </td>
              <td>
                <time dateTime={token.expiresAt}>{formatDate(token.expiresAt)}</time>
              </td>
              <td>{token.lastUsedAt ? <time dateTime={token.lastUsedAt}>{formatDateTime(token.lastUsedAt)}</time> : 'Never'}</td>
              <td>
                <RowAction reason={refusal} variant="ghost" onClick={() => setRevoking(token)}>
                  Revoke<VisuallyHidden> {token.name}</VisuallyHidden>
                </RowAction>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {revoking ? <RevokeTokenDialog account={account} token={revoking} onClose={() => setRevoking(null)} /> : null}
    </Dialog>
  );
}
