import type { FormEvent, ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';

const Form = styled.form`
  display: grid;
  gap: 16px;
`;

/**
 * A dialog that edits one account, opened for it and closed by Cancel, Escape or its caller once saved: a form of the
 * given fields with Cancel and a save button that reads "Saving..." while the change is on its way.
 */
export function EditDialog({
  title,
  description,
  formLabel,
  saveLabel = 'Save',
  saving,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  description: string;
  formLabel: string;
  saveLabel?: string;
  saving: boolean;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title={title} description={description}>
      <Form onSubmit={submit} aria-label={formLabel}>
        {children}
        <DialogActions>
          <Button type="button" $variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving...' : saveLabel}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
