import { useState, type FormEvent, type InputHTMLAttributes } from 'react';
import styled from 'styled-components';
import { type Role } from '@cbh/contracts';
import { Button, FieldLabel, TextInput, toast, type ToastInput } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';
import { RoleField } from './RoleField';

const Form = styled.form`
  display: grid;
  gap: 16px;
`;

const Hint = styled.span`
  font-size: 12px;
  font-weight: 400;
`;

const DEFAULT_ROLE: Role = 'viewer';

/**
 * Adds an account with a role: a person by invitation, or a service account by name. Its button says what its title
 * says. On success the form is emptied and the dialog closes; on failure it stays open, so that the name or address
 * can be corrected (e.g. when it is taken).
 */
export function AccountWithRoleDialog({
  title,
  description,
  formLabel,
  field: { label, hint, ...input },
  submitLabel,
  pendingLabel,
  pending,
  add,
  failure,
}: {
  title: string;
  description: string;
  formLabel: string;
  /** The one text field: its label, a hint under it, and the input's own attributes. */
  field: { label: string; hint?: string } & Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'placeholder' | 'maxLength'>;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** Adds the account from the field's trimmed text; resolves to the toast that says it is done. */
  add: (text: string, role: Role) => Promise<ToastInput>;
  /** The toast's text when adding failed. */
  failure: (error: unknown) => string;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [role, setRole] = useState<Role>(DEFAULT_ROLE);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      toast(await add(text.trim(), role));
      setText('');
      setRole(DEFAULT_ROLE);
      setOpen(false);
    } catch (error) {
      toast({ title: 'Error', description: failure(error), variant: 'destructive' });
    }
  };

  return (
    <Dialog open={open} onOpenChange={setOpen} title={title} description={description} trigger={<Button>{title}</Button>}>
      <Form onSubmit={submit} aria-label={formLabel}>
        <FieldLabel>
          {label}
          <TextInput {...input} value={text} onChange={(event) => setText(event.target.value)} autoComplete="off" required />
          {hint ? <Hint>{hint}</Hint> : null}
        </FieldLabel>
        <RoleField value={role} onChange={setRole} />
        <DialogActions>
          <Button type="button" $variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={!text.trim() || pending}>
            {pending ? pendingLabel : submitLabel}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
