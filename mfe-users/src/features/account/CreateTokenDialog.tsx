import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useCreateTokenMutation } from '@cbh/api-client';
import { TOKEN_MAX_DAYS, type Permission } from '@cbh/contracts';
import { Button, FieldLabel, Muted, TextInput, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';
import { PermissionToggles } from '../users/PermissionToggles';
import { TokenSecret } from './TokenSecret';

const Form = styled.form`
  display: grid;
  gap: 16px;
`;

const DEFAULT_DAYS = 30;

/**
 * Creates a personal access token: a name, how many days it lives and which of the person's permissions it carries
 * (all of them unless narrowed). Once created, the dialog shows the secret that exists nowhere else.
 */
export function CreateTokenDialog({ held }: { held: readonly Permission[] }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [days, setDays] = useState(String(DEFAULT_DAYS));
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set(held));
  const [secret, setSecret] = useState<string | null>(null);
  const [createToken, { isLoading }] = useCreateTokenMutation();
  const chosen = held.filter((permission) => selected.has(permission));

  const reset = () => {
    setName('');
    setDays(String(DEFAULT_DAYS));
    setSelected(new Set(held));
    setSecret(null);
  };
  const changeOpen = (next: boolean) => {
    setOpen(next);
    // the secret leaves the page with the dialog
    if (!next) reset();
  };
  const toggle = (permission: Permission, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(permission);
      else next.delete(permission);
      return next;
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const created = await createToken({ name: name.trim(), expiresInDays: Number(days), permissions: chosen }).unwrap();
      setSecret(created.token);
      toast({ title: 'Token Created', description: `Token '${created.name}' expires ${new Date(created.expiresAt).toLocaleDateString()}.` });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to create the token.', variant: 'destructive' });
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={changeOpen}
      title="New Access Token"
      description="A token lets a script call the API as you, with at most the permissions you choose here."
      trigger={<Button>New Token</Button>}
    >
      {secret ? (
        <>
          <TokenSecret token={secret} />
          <DialogActions>
            <Button type="button" onClick={() => changeOpen(false)}>
              Done
            </Button>
          </DialogActions>
        </>
      ) : (
        <Form onSubmit={submit} aria-label="New access token">
          <FieldLabel>
            Name
            <TextInput value={name} onChange={(event) => setName(event.target.value)} placeholder="ci-export" maxLength={100} required />
          </FieldLabel>
          <FieldLabel>
            Expires after (days)
            <TextInput
              type="number"
              inputMode="numeric"
              min={1}
              max={TOKEN_MAX_DAYS}
              value={days}
              onChange={(event) => setDays(event.target.value)}
              required
            />
          </FieldLabel>
          <fieldset>
            <legend>Permissions ({chosen.length} of {held.length})</legend>
            <PermissionToggles offered={held} selected={selected} onToggle={toggle} idPrefix="token-permission" />
          </fieldset>
          {chosen.length === 0 ? <Muted role="status">A token needs at least one permission.</Muted> : null}
          <DialogActions>
            <Button type="button" $variant="outline" onClick={() => changeOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!name.trim() || chosen.length === 0 || isLoading}>
              {isLoading ? 'Creating...' : 'Create Token'}
            </Button>
          </DialogActions>
        </Form>
      )}
    </Dialog>
  );
}
