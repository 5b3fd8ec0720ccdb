import { apiErrorMessage, useRunDrillDefinitionMutation } from '@cbh/api-client';
import { drillPath, type DrillDefinitionView } from '@cbh/contracts';
import { useNavigate } from '@cbh/router';
import { toast } from '@cbh/ui';
import { ConfirmDialog } from '@cbh/ui/overlays';
import { definitionSteps } from './drill-text';

/** Asks before running a saved drill, in the words of its blast radius; opens its page once it started. */
export function RunSavedConfirm({ drill, onClose }: { drill: DrillDefinitionView; onClose: () => void }) {
  const [run, { isLoading }] = useRunDrillDefinitionMutation();
  const navigate = useNavigate();
  const confirm = async () => {
    try {
      const started = await run(drill.id).unwrap();
      onClose();
      navigate(drillPath(started.id));
    } catch (error) {
      // a stale sign-in, a breaker under another drill or gone: the API says which
      toast({ title: 'Drill not started', description: apiErrorMessage(error) ?? 'Failed to start the drill.', variant: 'destructive' });
      onClose();
    }
  };
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Run saved drill"
      description={`“${drill.name}” injects faults into real traffic: ${definitionSteps(drill)
        .map((step, index) => `step ${index + 1}: ${step}`)
        .join('; ')}.`}
      confirmLabel="Run drill"
      pendingLabel="Starting..."
      pending={isLoading}
      onConfirm={confirm}
    />
  );
}
