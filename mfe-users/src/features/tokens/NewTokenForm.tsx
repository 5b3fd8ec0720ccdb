import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { apiErrorMessage } from '@cbh/api-client';
import { PERMISSIONS, TOKEN_MAX_DAYS, type CreatedApiTokenView, type Permission } from '@cbh/contracts';
import { Button, FieldLabel, Muted, TextInput, toast } from '@cbh/ui';
import { DialogActions } from '@cbh/ui/overlays';
import { PermissionToggles } from './PermissionToggles';
import { TokenSecret } from './TokenSecret';

const Form = styled.form`
  display: grid;
  gap: 16px;
`;

export interface NewTokenRequest {
  name: string;
  expiresInDays: number;
  permissions: Permission[];
}

/**
 * The inside of a "new access token" dialog, for a person's own tokens and a service account's alike: a name, the
 * days until it expires and which of the owner's permissions it carries (all at first); once created, the secret,
 * that one time. `create` is the mutation (unwrapped); `onDone` closes the dialog, which forgets the secret.
 */
export function NewTokenForm({
  allowed,
  defaultDays,
  create,
  onDone,
  placeholder,
}: {
  allowed: readonly Permission[];
  defaultDays: number;
  create: (request: NewTokenRequest) => Promise<CreatedApiTokenView>;
  onDone: () => void;
  placeholder: string;
}) {
  const [name, setName] = useState('');
  const [days, setDays] = useState(String(defaultDays));
  const [selected, setSelected] = useState<ReadonlySet<Permission>>(() => new Set(allowed));
  const [created, setCreated] = useState<CreatedApiTokenView | null>(null);
  const [pending, setPending] = useState(false);
  const chosen = PERMISSIONS.filter((permission) => selected.has(permission));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    try {
      const token = await create({ name: name.trim(), expiresInDays: Number(days), permissions: chosen });
      setCreated(token);
      toast({
        title: 'Token Created',
        description: `${token.name} (${token.prefix}…) expires ${new Date(token.expiresAt).toLocaleDateString()}.`,
      });
    } catch (error) {
      // the form stays, so the name, lifetime or permissions can be corrected
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to create the token.', variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };

  if (created) {
    return (
      <>
        <TokenSecret token={created.token} />
        <DialogActions>
          <Button type="button" onClick={onDone}>
            Done
          </Button>
        </DialogActions>
      </>
    );
  }
  return (
    <Form onSubmit={submit} aria-label="New token">
      <FieldLabel>
        Token name
        <TextInput value={name} onChange={(event) => setName(event.target.value)} placeholder={placeholder} required maxLength={100} />
      </FieldLabel>
      <FieldLabel>
        Expires in (days)
        <TextInput
          type="number"
          inputMode="numeric"
          value={days}
          onChange={(event) => setDays(event.target.value)}
          min={1}
          max={TOKEN_MAX_DAYS}
          step={1}
          required
        />
      </FieldLabel>
      <PermissionToggles
        allowed={allowed}
        selected={selected}
        onChange={setSelected}
        legend={`Permissions (${chosen.length} of ${allowed.length})`}
      />
      {chosen.length === 0 ? <Muted role="status">A token needs at least one permission.</Muted> : null}
      <DialogActions>
        <Button type="button" $variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={!name.trim() || !days || chosen.length === 0 || pending}>
          {pending ? 'Creating...' : 'Create Token'}
        </Button>
      </DialogActions>
    </Form>
  );
}
