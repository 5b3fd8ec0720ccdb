import { apiErrorMessage, useStopDrillMutation } from '@cbh/api-client';
import type { DrillView } from '@cbh/contracts';
import { toast } from '@cbh/ui';
import { BigStopButton } from './BigStopButton';

/**
 * Stops one running drill at once, with no question asked: stopping lifts its faults, the safe way, and whoever
 * watches a drill hurt more than it should must not be slowed by a dialog.
 */
export function StopDrill({ drill }: { drill: DrillView }) {
  const [stop, { isLoading }] = useStopDrillMutation();
  const click = async () => {
    try {
      await stop(drill.id).unwrap();
      toast({ title: 'Drill Stopped', description: `${drill.name} is stopped: its faults are lifted.` });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to stop the drill.', variant: 'destructive' });
    }
  };
  return (
    <BigStopButton onClick={click} disabled={isLoading}>
      {isLoading ? 'Stopping...' : 'Stop drill'}
    </BigStopButton>
  );
}
