import { useState } from 'react';
import { apiErrorMessage, useSilenceAlertGroupMutation } from '@cbh/api-client';
import type { AlertGroupView } from '@cbh/contracts';
import { Button, FieldLabel, formatDateTime, Select, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';

/** The spans offered, in minutes: a short look, an hour, an afternoon, a day (the API takes 1 to 10,080). */
export const SILENCE_CHOICES = [
  [15, '15 minutes'],
  [60, '1 hour'],
  [240, '4 hours'],
  [1440, '24 hours'],
] as const;

/**
 * Silences a group for a while: no one is paged until then, and then its escalation starts again from the first step;
 * its events still join it.
 * The dialog stays open on a refusal, to try again.
 */
export function SilenceDialog({ group, onClose }: { group: AlertGroupView; onClose: () => void }) {
  const [minutes, setMinutes] = useState<number>(SILENCE_CHOICES[1][0]);
  const [silence, { isLoading }] = useSilenceAlertGroupMutation();
  const save = async () => {
    try {
      const silenced = await silence({ id: group.id, minutes }).unwrap();
      const until = silenced.silencedUntil ? ` until ${formatDateTime(silenced.silencedUntil)}` : '';
      toast({ title: 'Alert Group Silenced', description: `${group.title}: no one is paged${until}.` });
      onClose();
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to silence the alert group.', variant: 'destructive' });
    }
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Silence ${group.title}`}
      description="No one is paged while it is silenced; its events still join it. When the time is up, its escalation starts again from the first step."
    >
      <FieldLabel>
        Silence for
        <Select value={minutes} onChange={(event) => setMinutes(Number(event.target.value))} disabled={isLoading}>
          {SILENCE_CHOICES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </FieldLabel>
      <DialogActions>
        <Button $variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={save} disabled={isLoading}>
          {isLoading ? 'Silencing...' : 'Silence'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
