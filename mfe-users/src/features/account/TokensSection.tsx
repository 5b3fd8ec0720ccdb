import { useState } from 'react';
import { apiErrorMessage, useGetTokensQuery } from '@cbh/api-client';
import { heldPermissions, type ApiTokenView, type AuthUser } from '@cbh/contracts';
import { Button, Card, DataTable, formatDate, formatDateTime, Muted, SectionTitle, SpreadRow, VisuallyHidden } from '@cbh/ui';
import { CreateTokenDialog } from './CreateTokenDialog';
import { RevokeTokenDialog } from './RevokeTokenDialog';

const TOKEN_COLUMNS = ['Name', 'Token', 'Permissions', 'Created', 'Expires', 'Last used', 'Actions'];

function lastUse(token: ApiTokenView): string {
  if (!token.lastUsedAt) return 'Never';
  return token.lastUsedFrom ? `${formatDateTime(token.lastUsedAt)} from ${token.lastUsedFrom}` : formatDateTime(token.lastUsedAt);
}

function TokenRow({ token, onRevoke }: { token: ApiTokenView; onRevoke: () => void }) {
  const expired = new Date(token.expiresAt).getTime() <= Date.now();
  return (
    <tr>
      <td>{token.name}</td>
      <td>
        <code>{token.prefix}…</code>
      </td>
      <td title={token.permissions.join(', ')}>{token.permissions.length}</td>
      <td>{formatDate(token.createdAt)}</td>
      <td>{expired ? `Expired ${formatDate(token.expiresAt)}` : formatDate(token.expiresAt)}</td>
      <td>{lastUse(token)}</td>
      <td>
        <Button type="button" $variant="outline" onClick={onRevoke}>
          Revoke<VisuallyHidden> {token.name}</VisuallyHidden>
        </Button>
      </td>
    </tr>
  );
}

/** The person's personal access tokens: create, list (never the secret) and revoke. Only holders of api_access get one. */
export function TokensSection({ me }: { me: AuthUser }) {
  const held = heldPermissions(me);
  const tokens = useGetTokensQuery(undefined, { skip: !held.includes('api_access') });
  const [revoking, setRevoking] = useState<ApiTokenView | null>(null);

  if (!held.includes('api_access')) {
    return (
      <Card aria-labelledby="tokens-title">
        <SectionTitle id="tokens-title">API Tokens</SectionTitle>
        <Muted>Access tokens need the api_access permission, which your account does not hold. A user manager can grant it.</Muted>
      </Card>
    );
  }

  return (
    <Card aria-labelledby="tokens-title">
      <SpreadRow $below={12}>
        <SectionTitle id="tokens-title">API Tokens</SectionTitle>
        <CreateTokenDialog held={held} />
      </SpreadRow>
      {tokens.data ? (
        <DataTable
          label="Your access tokens"
          columns={TOKEN_COLUMNS}
          minWidth={760}
          empty="No tokens yet. Create one to call the API from a script."
        >
          {tokens.data.map((token) => (
            <TokenRow key={token.id} token={token} onRevoke={() => setRevoking(token)} />
          ))}
        </DataTable>
      ) : tokens.isError ? (
        <Muted role="alert">The tokens could not be loaded. {apiErrorMessage(tokens.error) ?? ''}</Muted>
      ) : (
        <Muted role="status">Loading tokens…</Muted>
      )}
      {revoking ? <RevokeTokenDialog token={revoking} onClose={() => setRevoking(null)} /> : null}
    </Card>
  );
}
