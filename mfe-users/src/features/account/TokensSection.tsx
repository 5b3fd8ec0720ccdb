import { useState } from 'react';
import { apiErrorMessage, useGetTokensQuery } from '@cbh/api-client';
import { heldPermissions, permissionLabel, type ApiTokenView, type AuthUser } from '@cbh/contracts';
import { Button, Card, Muted, ResponsiveTable, SectionTitle, SpreadRow, VisuallyHidden, When, type TableColumn } from '@cbh/ui';
import { CreateTokenDialog } from './CreateTokenDialog';
import { RevokeTokenDialog } from './RevokeTokenDialog';

/** When and where a token was used last: the moment (relative, exact on hover) and the address it came from. */
function LastUse({ token }: { token: ApiTokenView }) {
  if (!token.lastUsedAt) return <>Never</>;
  return (
    <>
      <When at={token.lastUsedAt} />
      {token.lastUsedFrom ? ` from ${token.lastUsedFrom}` : null}
    </>
  );
}

const TOKEN_COLUMNS: readonly TableColumn<ApiTokenView>[] = [
  { header: 'Name', cell: (token) => token.name },
  { header: 'Token', cell: (token) => <code>{token.prefix}…</code>, nowrap: true },
  {
    header: 'Permissions',
    cell: (token) => <span title={token.permissions.map(permissionLabel).join(', ')}>{token.permissions.length}</span>,
    priority: 3,
  },
  { header: 'Created', cell: (token) => <When at={token.createdAt} />, priority: 3, nowrap: true },
  {
    header: 'Expires',
    cell: (token) => (
      <>
        {new Date(token.expiresAt).getTime() <= Date.now() ? 'Expired ' : null}
        <When at={token.expiresAt} />
      </>
    ),
    priority: 2,
    nowrap: true,
  },
  { header: 'Last used', cell: (token) => <LastUse token={token} />, priority: 2 },
];

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
        <ResponsiveTable
          region
          label="Your access tokens"
          rows={tokens.data}
          rowKey={(token) => token.id}
          columns={TOKEN_COLUMNS}
          inline={(token) => (
            <Button type="button" $variant="outline" onClick={() => setRevoking(token)}>
              Revoke<VisuallyHidden> {token.name}</VisuallyHidden>
            </Button>
          )}
          empty="No tokens yet. Create one to call the API from a script."
        />
      ) : tokens.isError ? (
        <Muted role="alert">The tokens could not be loaded. {apiErrorMessage(tokens.error) ?? ''}</Muted>
      ) : (
        <Muted role="status">Loading tokens…</Muted>
      )}
      {revoking ? <RevokeTokenDialog token={revoking} onClose={() => setRevoking(null)} /> : null}
    </Card>
  );
}
