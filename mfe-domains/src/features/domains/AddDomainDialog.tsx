import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { failureText, useAddDomainMutation } from '@cbh/api-client';
import { Button, FieldLabel, TextInput, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';

const Form = styled.form`
  display: grid;
  gap: 16px;
`;

/** Longest domain name DNS allows, plus room for the spaces the server trims. */
const MAX_INPUT = 300;

/** Add Domain and its dialog; `label` names the button where it stands elsewhere (an empty portfolio's action). */
export function AddDomainDialog({ label = 'Add Domain' }: { label?: string }) {
  const [open, setOpen] = useState(false);
  const [domain, setDomain] = useState('');
  const [addDomain, { isLoading }] = useAddDomainMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await addDomain({ domain }).unwrap();
      toast({ title: 'Domain Added', description: 'Your domain has been added successfully.' });
      setDomain('');
      setOpen(false);
    } catch (error) {
      // the dialog stays open with what was typed, so a malformed or duplicate name can be corrected; the
      // server's reason is added for those two (it says what to change), not for anything else (it says nothing useful)
      const status = (error as { status?: unknown }).status;
      const correctable = status === 400 || status === 409;
      toast({
        title: 'Error',
        description: failureText('Failed to add domain. Please try again.', correctable ? error : undefined),
        variant: 'destructive',
      });
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title="Add Domain"
      description="Add a domain you own. Its checks begin once a TXT record proves it is yours (see Manage)."
      trigger={<Button>{label}</Button>}
    >
      <Form onSubmit={submit} aria-label="Add domain">
        <FieldLabel>
          Domain Name
          <TextInput
            value={domain}
            onChange={(event) => setDomain(event.target.value)}
            placeholder="example.com"
            autoComplete="off"
            spellCheck={false}
            maxLength={MAX_INPUT}
          />
        </FieldLabel>
        <DialogActions>
          <Button type="button" $variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={!domain.trim() || isLoading}>
            {isLoading ? 'Adding...' : 'Add Domain'}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
