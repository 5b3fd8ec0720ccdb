import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useCreateServiceAccountMutation } from '@cbh/api-client';
import { type Role, SERVICE_ACCOUNT_NAME_MAX } from '@cbh/contracts';
import { Button, FieldLabel, TextInput, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';
import { RoleField } from '../users/RoleField';

const Form = styled.form`
  display: grid;
  gap: 16px;
`;

const Hint = styled.span`
  font-size: 12px;
  font-weight: 400;
`;

const DEFAULT_ROLE: Role = 'viewer';

/** Creates a service account with a name and a role; it gets that role's permissions. */
export function NewServiceAccountDialog() {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>(DEFAULT_ROLE);
  const [create, { isLoading }] = useCreateServiceAccountMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await create({ name: name.trim(), role }).unwrap();
      toast({ title: 'Service Account Created', description: `${name.trim()} can now be given access tokens.` });
      setName('');
      setRole(DEFAULT_ROLE);
      setOpen(false);
    } catch (error) {
      // the dialog stays open so the name can be corrected, e.g. when it is taken
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to create the service account.', variant: 'destructive' });
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title="New Service Account"
      description="An account for a machine (a CI job, a service reporting breakers): it never signs in and acts only through its access tokens."
      trigger={<Button>New Service Account</Button>}
    >
      <Form onSubmit={submit} aria-label="New service account">
        <FieldLabel>
          Name
          <TextInput
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="ci-bot"
            autoComplete="off"
            required
            maxLength={SERVICE_ACCOUNT_NAME_MAX}
          />
          <Hint>Lower-case letters, digits and '-'.</Hint>
        </FieldLabel>
        <RoleField value={role} onChange={setRole} />
        <DialogActions>
          <Button type="button" $variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={!name.trim() || isLoading}>
            {isLoading ? 'Creating...' : 'Create'}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
