import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useCreateServiceAccountTokenMutation } from '@cbh/api-client';
import { type CreatedApiTokenView, type Permission, PERMISSIONS, type ServiceAccountView } from '@cbh/contracts';
import { Button, FieldLabel, TextInput, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';
import { PermissionToggles } from '../tokens/PermissionToggles';
import { TokenSecret } from '../tokens/TokenSecret';
import { heldBy } from './held-permissions';

const Form = styled.form`
  display: grid;
  gap: 16px;
`;

const DEFAULT_DAYS = 90;

/**
 * Makes an access token for a service account: a name, days until it expires and which of the account's
 * permissions it carries (all of them at first). Once made, the token is shown in the dialog, that one time.
 */
export function NewTokenDialog({ account, onClose }: { account: ServiceAccountView; onClose: () => void }) {
  const allowed = heldBy(account);
  const [name, setName] = useState('');
  const [days, setDays] = useState(String(DEFAULT_DAYS));
  const [selected, setSelected] = useState<ReadonlySet<Permission>>(() => new Set(allowed));
  const [created, setCreated] = useState<CreatedApiTokenView | null>(null);
  const [createToken, { isLoading }] = useCreateServiceAccountTokenMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const token = await createToken({
        id: account.id,
        name: name.trim(),
        expiresInDays: Number(days),
        permissions: PERMISSIONS.filter((permission) => selected.has(permission)),
      }).unwrap();
      setCreated(token);
      toast({ title: 'Token Created', description: `${token.name} (${token.prefix}…) for ${account.name}.` });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to create the token.', variant: 'destructive' });
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="New Token"
      description={`An access token for ${account.name}, with at most its permissions.`}
    >
      {created ? (
        <>
          <TokenSecret token={created.token} />
          <DialogActions>
            <Button type="button" onClick={onClose}>
              Done
            </Button>
          </DialogActions>
        </>
      ) : (
        <Form onSubmit={submit} aria-label="New token">
          <FieldLabel>
            Token name
            <TextInput value={name} onChange={(event) => setName(event.target.value)} placeholder="deploy" required maxLength={100} />
          </FieldLabel>
          <FieldLabel>
            Expires in (days)
            <TextInput type="number" value={days} onChange={(event) => setDays(event.target.value)} min={1} step={1} required />
          </FieldLabel>
          <PermissionToggles allowed={allowed} selected={selected} onChange={setSelected} />
          <DialogActions>
            <Button type="button" $variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!name.trim() || !days || isLoading}>
              {isLoading ? 'Creating...' : 'Create Token'}
            </Button>
          </DialogActions>
        </Form>
      )}
    </Dialog>
  );
}
