import { useState } from 'react';
import { apiErrorMessage, useUpdateBreakerSettingsMutation } from '@cbh/api-client';
import { BreakerSettingsSliders } from '@cbh/breaker-widgets/controls';
import type { BreakerConfigView, BreakerCoreSettings } from '@cbh/contracts';
import { Button, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';

/** The §5 sliders over the breaker's four settings; Save sends all four with PATCH and applies on every replica. */
export function EditSettingsDialog({ breaker, onClose }: { breaker: BreakerConfigView; onClose: () => void }) {
  const [settings, setSettings] = useState<BreakerCoreSettings>(() => ({
    failureThreshold: breaker.failureThreshold,
    timeout: breaker.timeout,
    recoveryTime: breaker.recoveryTime,
    successThreshold: breaker.successThreshold,
  }));
  const [update, { isLoading }] = useUpdateBreakerSettingsMutation();

  const save = async () => {
    try {
      await update({ id: breaker.id, settings }).unwrap();
      toast({ title: 'Configuration Updated', description: 'Circuit breaker settings have been applied successfully.' });
      onClose();
    } catch (error) {
      // the dialog stays open with the chosen values, to try again
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to update configuration.', variant: 'destructive' });
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Edit settings of ${breaker.name}`}
      description="The new settings apply to every replica at once."
    >
      <BreakerSettingsSliders value={settings} onChange={setSettings} disabled={isLoading} />
      <DialogActions>
        <Button $variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={save} disabled={isLoading}>
          {isLoading ? 'Saving...' : 'Save'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
