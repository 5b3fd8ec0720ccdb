import { useState } from 'react';
import { apiErrorMessage } from '@cbh/api-client';
import { toast } from '@cbh/ui';
import { ConfirmDialog } from '@cbh/ui/overlays';

/** Asks before deleting a channel, a rule or a window, then says how it went; the dialog closes either way. */
export function ConfirmDelete({
  what,
  name,
  consequence,
  remove,
  onClose,
}: {
  /** 'channel', 'rule', 'maintenance window' */
  what: string;
  name: string;
  /** What deleting it changes, in a sentence. */
  consequence: string;
  remove: () => Promise<unknown>;
  onClose: () => void;
}) {
  const [pending, setPending] = useState(false);
  const confirm = async () => {
    setPending(true);
    try {
      await remove();
      toast({ title: `${what.replace(/\b\w/g, (letter) => letter.toUpperCase())} Deleted`, description: `${name} was deleted.` });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? `Failed to delete the ${what}.`, variant: 'destructive' });
    }
    onClose();
  };
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Delete ${what}`}
      description={`Delete ${name}? ${consequence}`}
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      pending={pending}
      onConfirm={confirm}
    />
  );
}
