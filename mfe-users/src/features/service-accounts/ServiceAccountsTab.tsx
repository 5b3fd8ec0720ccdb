import { useState } from 'react';
import { apiErrorMessage, useGetServiceAccountsQuery, useUpdateServiceAccountMutation } from '@cbh/api-client';
import { accountChangeRefusal, type AuthUser, type ServiceAccountView } from '@cbh/contracts';
import { Card, Muted, ResponsiveTable, RoleBadge, SectionTitle, SpreadRow, toast, When, type TableColumn } from '@cbh/ui';
import { Switch } from '@cbh/ui/overlays';
import { DisabledReason } from '../users/DisabledReason';
import { DeleteServiceAccountDialog } from './DeleteServiceAccountDialog';
import { EditServiceAccountDialog } from './EditServiceAccountDialog';
import { NewServiceAccountDialog } from './NewServiceAccountDialog';
import { NewTokenDialog } from './NewTokenDialog';
import { ServiceAccountTokensDialog } from './ServiceAccountTokensDialog';

const COLUMNS: readonly TableColumn<ServiceAccountView>[] = [
  { header: 'Name', cell: (account) => account.name },
  { header: 'Role', cell: (account) => <RoleBadge role={account.role} /> },
  { header: 'Tokens', cell: (account) => account.tokenCount, priority: 2 },
  { header: 'Created', cell: (account) => <When at={account.createdAt} />, priority: 3, nowrap: true },
];

type Editing = { kind: 'edit' | 'token' | 'tokens' | 'delete'; account: ServiceAccountView } | null;

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
 * The service accounts, with a switch to disable each and a menu to change its role and permissions, list, make and
 * revoke its tokens, or delete it; on one the signed-in user may not change (the server's rule, from @cbh/contracts) these are disabled with the
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
        <ResponsiveTable
          label="Service accounts"
          rows={accounts.data}
          rowKey={(account) => account.id}
          rowName={(account) => account.name}
          rowTestId={(account) => `service-account-row-${account.id}`}
          columns={COLUMNS}
          inline={(account) => <StatusSwitch account={account} refusal={accountChangeRefusal(me, account)} />}
          actions={(account) => {
            const refusal = accountChangeRefusal(me, account);
            return [
              { label: 'Edit role and permissions', disabledReason: refusal, onSelect: () => setEditing({ kind: 'edit', account }) },
              { label: 'New Token', disabledReason: refusal, onSelect: () => setEditing({ kind: 'token', account }) },
              { label: 'Tokens', onSelect: () => setEditing({ kind: 'tokens', account }) },
              { label: 'Delete', danger: true, disabledReason: refusal, onSelect: () => setEditing({ kind: 'delete', account }) },
            ];
          }}
        />
      )}
      {editing?.kind === 'edit' ? <EditServiceAccountDialog key={editing.account.id} account={editing.account} onClose={close} /> : null}
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
