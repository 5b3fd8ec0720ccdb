import { toast, type ToastInput } from '@cbh/ui';
import { ConfirmDialog, type ConfirmDialogProps } from '@cbh/ui/overlays';

/**
 * Asks before one action (revoke, delete, sign out, promote…), runs it, says how it went in a toast and closes,
 * whichever way it went: the list behind shows the outcome. Every such dialog of this remote is one of these, so
 * they all behave alike; each says only what it runs and what it says.
 */
export function ConfirmActionDialog({
  run,
  failure,
  onClose,
  ...texts
}: Pick<ConfirmDialogProps, 'title' | 'description' | 'confirmLabel' | 'pendingLabel' | 'pending'> & {
  /** The action; resolves to the toast that says it is done. */
  run: () => Promise<ToastInput>;
  /** The toast's text when the action failed. */
  failure: (error: unknown) => string;
  onClose: () => void;
}) {
  const confirm = async () => {
    try {
      toast(await run());
    } catch (error) {
      toast({ title: 'Error', description: failure(error), variant: 'destructive' });
    }
    onClose();
  };
  return <ConfirmDialog open onOpenChange={(open) => (open ? undefined : onClose())} onConfirm={() => void confirm()} {...texts} />;
}
