import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { failureText, useInviteUserMutation } from '@cbh/api-client';
import { type Role } from '@cbh/contracts';
import { Button, FieldLabel, TextInput, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';
import { RoleField } from './RoleField';

const Form = styled.form`
  display: grid;
  gap: 16px;
`;

const DEFAULT_ROLE: Role = 'viewer';

export function InviteUserDialog() {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>(DEFAULT_ROLE);
  const [inviteUser, { isLoading }] = useInviteUserMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await inviteUser({ email: email.trim(), role }).unwrap();
      toast({ title: 'User Invited', description: 'Invitation sent successfully.' });
      setEmail('');
      setRole(DEFAULT_ROLE);
      setOpen(false);
    } catch (error) {
      // the dialog stays open so the address can be corrected, e.g. when it already has an account
      toast({ title: 'Error', description: failureText('Failed to invite user.', error), variant: 'destructive' });
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title="Invite User"
      description="Send an invitation e-mail; the account becomes active once the invitation is accepted."
      trigger={<Button>Invite User</Button>}
    >
      <Form onSubmit={submit} aria-label="Invite user">
        <FieldLabel>
          Email Address
          <TextInput
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            placeholder="name@example.com"
            autoComplete="off"
            required
            maxLength={254}
          />
        </FieldLabel>
        <RoleField value={role} onChange={setRole} />
        <DialogActions>
          <Button type="button" $variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={!email.trim() || isLoading}>
            {isLoading ? 'Sending...' : 'Send Invitation'}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
