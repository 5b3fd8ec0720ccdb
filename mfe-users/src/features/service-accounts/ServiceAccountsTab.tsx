import { useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useGetServiceAccountsQuery, useUpdateServiceAccountMutation } from '@cbh/api-client';
import { accountChangeRefusal, type AuthUser, type ServiceAccountView } from '@cbh/contracts';
import { Card, DataTable, formatDate, Muted, RoleBadge, SectionTitle, SpreadRow, toast, VisuallyHidden } from '@cbh/ui';
import { Switch } from '@cbh/ui/overlays';
import { DisabledReason } from '../users/DisabledReason';
import { RowAction } from '../users/RowAction';
import { DeleteServiceAccountDialog } from './DeleteServiceAccountDialog';
import { NewServiceAccountDialog } from './NewServiceAccountDialog';
import { NewTokenDialog } from './NewTokenDialog';
import { ServiceAccountTokensDialog } from './ServiceAccountTokensDialog';

const COLUMNS = ['Name', 'Role', 'Status', 'Tokens', 'Created', 'Actions'];

const Actions = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
`;

type Editing = { kind: 'token' | 'tokens' | 'delete'; account: ServiceAccountView } | null;

/** Enables or disables a service account: disabled, every one of its tokens is refused at once. */
function StatusSwitch({ account, refusal }: { account: ServiceAccountView; refusal: string | null }) {
  const [update, { isLoading }] = useUpdateServiceAccountMutation();
  const label = `Active: ${account.name}`;
  const change = async (isActive: boolean) => {
    try {
      await update({ id: account.id, isActive }).unwrap();
      toast({ title: 'Service Account Updated', description: `${account.name} is ${isActive ? 'enabled' : 'disabled'}.` });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to update the service account.', variant: 'destructive' });
    }
  };
  if (refusal) {
    return (
      <DisabledReason reason={refusal}>
        <Switch checked={account.isActive} onCheckedChange={() => undefined} label={label} disabled />
      </DisabledReason>
    );
  }
  return <Switch checked={account.isActive} onCheckedChange={change} label={label} disabled={isLoading} />;
}

/**
 * The service accounts, with a switch to disable each, its tokens to list, make and revoke, and a button to delete
 * it; on one the signed-in user may not change (the server's rule, from @cbh/contracts) these are disabled with the
 * reason.
 */
export function ServiceAccountsTab({ me }: { me: AuthUser }) {
  const accounts = useGetServiceAccountsQuery();
  const [editing, setEditing] = useState<Editing>(null);
  const close = () => setEditing(null);

  return (
    <Card>
      <SpreadRow $below={16}>
        <SectionTitle>Service Accounts</SectionTitle>
        <NewServiceAccountDialog />
      </SpreadRow>
      {accounts.isError ? (
        <Muted role="alert">The service accounts could not be loaded. {apiErrorMessage(accounts.error) ?? ''}</Muted>
      ) : !accounts.data ? (
        <Muted role="status">Loading service accounts…</Muted>
      ) : accounts.data.length === 0 ? (
        <Muted>No service accounts yet. Create one for a CI job or a service that calls the API.</Muted>
      ) : (
        <DataTable label="Service accounts" minWidth={860} columns={COLUMNS}>
          {accounts.data.map((account) => {
            const refusal = accountChangeRefusal(me, account);
            const which = <VisuallyHidden> for {account.name}</VisuallyHidden>;
            return (
              <tr key={account.id} data-testid={`service-account-row-${account.id}`}>
                <td>{account.name}</td>
                <td>
                  <RoleBadge role={account.role} />
                </td>
                <td>
                  <StatusSwitch account={account} refusal={refusal} />
                </td>
                <td>{account.tokenCount}</td>
                <td>
                  <time dateTime={account.createdAt}>{formatDate(account.createdAt)}</time>
                </td>
                <td>
                  <Actions>
                    <RowAction reason={refusal} variant="outline" onClick={() => setEditing({ kind: 'token', account })}>
                      New Token{which}
                    </RowAction>
                    <RowAction reason={null} variant="outline" onClick={() => setEditing({ kind: 'tokens', account })}>
                      Tokens{which}
                    </RowAction>
                    <RowAction reason={refusal} variant="ghost" onClick={() => setEditing({ kind: 'delete', account })}>
                      Delete{which}
                    </RowAction>
                  </Actions>
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      {editing?.kind === 'token' ? <NewTokenDialog key={editing.account.id} account={editing.account} onClose={close} /> : null}
      {editing?.kind === 'tokens' ? (
        <ServiceAccountTokensDialog
          key={editing.account.id}
          account={editing.account}
          refusal={accountChangeRefusal(me, editing.account)}
          onClose={close}
        />
      ) : null}
      {editing?.kind === 'delete' ? (
        <DeleteServiceAccountDialog key={editing.account.id} account={editing.account} onClose={close} />
      ) : null}
    </Card>
  );
}
