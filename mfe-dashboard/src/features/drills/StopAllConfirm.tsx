import { apiErrorMessage, useStopAllDrillsMutation } from '@cbh/api-client';
import type { DrillView } from '@cbh/contracts';
import { plural, toast } from '@cbh/ui';
import { ConfirmDialog } from '@cbh/ui/overlays';

/** Asks before stopping every running drill, names them, then says how many the API stopped; closes either way. */
export function StopAllConfirm({ running, onClose }: { running: readonly DrillView[]; onClose: () => void }) {
  const [stopAll, { isLoading }] = useStopAllDrillsMutation();
  const confirm = async () => {
    try {
      const { stopped } = await stopAll().unwrap();
      toast({ title: 'Drills Stopped', description: `${plural(stopped, 'drill')} stopped: their faults are lifted.` });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to stop the drills.', variant: 'destructive' });
    }
    onClose();
  };
  const names = running.map((drill) => drill.name).join(', ');
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Stop all drills"
      description={`Stop ${running.length === 1 ? 'the running drill' : `all ${running.length} running drills`} (${names})? Every fault they inject is lifted at once, on every instance; their reports end here.`}
      confirmLabel="Stop all drills"
      pendingLabel="Stopping..."
      pending={isLoading}
      onConfirm={confirm}
    />
  );
}
