import type { FormEvent, ReactNode } from 'react';
import { Button, Fieldset, Form, Problem, toast, type ToastInput } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';

/** What the frame needs of a form's state (useFormDraft's result). */
interface FormState {
  valid: boolean;
  formProblem?: string;
  refused: (error: unknown, fallback: string) => void;
}

/**
 * The frame every add and edit dialog of the remote shares, so they save and fail alike: the fields are disabled
 * while a save is on its way, Save waits for a valid (and, editing, changed) form, a success toasts and closes, and a
 * refusal keeps the dialog open with the server's reason under the field it names, or above the buttons.
 */
export function FormDialog<Saved>({
  title,
  description,
  formLabel,
  form,
  pending,
  unchanged = false,
  wide = false,
  save,
  saved,
  failure,
  onClose,
  children,
}: {
  title: string;
  description: string;
  /** The form's accessible name ('New rule', 'Edit channel'). */
  formLabel: string;
  form: FormState;
  /** Whether a save is on its way (the mutations' isLoading). */
  pending: boolean;
  /** An edit that changes nothing: Save stays disabled. */
  unchanged?: boolean;
  /** A form of lists (steps, rotations) that needs the wide panel. */
  wide?: boolean;
  /** Sends the form; rejects with the server's refusal. */
  save: () => Promise<Saved>;
  /** The toast that says what was saved. */
  saved: (saved: Saved) => ToastInput;
  /** Shown above the buttons when the server gives no reason. */
  failure: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      toast(saved(await save()));
      onClose();
    } catch (error) {
      form.refused(error, failure);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title={title} description={description} wide={wide}>
      <Form onSubmit={submit} aria-label={formLabel} noValidate>
        <Fieldset disabled={pending}>
          {children}
          {form.formProblem ? <Problem role="alert">{form.formProblem}</Problem> : null}
          <DialogActions>
            <Button type="button" $variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!form.valid || unchanged || pending}>
              {pending ? 'Saving...' : 'Save'}
            </Button>
          </DialogActions>
        </Fieldset>
      </Form>
    </Dialog>
  );
}
