import { useState } from 'react';
import { apiErrorMessage, useDeleteBreakerMutation, useGetServicesQuery } from '@cbh/api-client';
import { ROUTES, type BreakerConfigView } from '@cbh/contracts';
import { useNavigate } from '@cbh/router';
import { Button, plural, theme, toast } from '@cbh/ui';
import { ConfirmDialog, OnceOpened } from './lazy-dialogs';

/**
 * Deletes the breaker after a confirmation naming it; the API refuses (409, with its reason) while a load test runs.
 * A service's breaker is only the hub's record of it: the service keeps running it, and reports it again.
 */
export function DeleteBreaker({ breaker }: { breaker: BreakerConfigView }) {
  const [confirming, setConfirming] = useState(false);
  const [remove, { isLoading }] = useDeleteBreakerMutation();
  // the hub's demo services call through the hub's own breakers only
  const { data: services = [] } = useGetServicesQuery(undefined, { skip: breaker.source !== 'hub' });
  const navigate = useNavigate();
  const using = services.filter((service) => service.circuitBreakerConfigId === breaker.id).length;

  const confirm = async () => {
    try {
      await remove(breaker.id).unwrap();
      toast({ title: 'Circuit Breaker Deleted', description: `${breaker.name} and its journal and load-test history are deleted.` });
      navigate(ROUTES.breakers.path);
    } catch (error) {
      // 409 says why (a load test running through it): retrying will not help until that changes, so close
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to delete the circuit breaker.', variant: 'destructive' });
      setConfirming(false);
    }
  };

  return (
    <>
      <Button $variant="outline" style={{ color: theme.colors.destructive }} onClick={() => setConfirming(true)}>
        Delete
      </Button>
      <OnceOpened open={confirming}>
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={`Delete ${breaker.name}?`}
          description={
            breaker.source === 'hub'
              ? `Its transition journal and load-test history are deleted with it${
                  using ? `, and the ${plural(using, 'service')} using it will call without a breaker` : ''
                }. This cannot be undone.`
              : `Its transition journal is deleted with it. The breaker runs on in ${breaker.service}, and appears here again when ${breaker.service} next reports it.`
          }
          confirmLabel="Delete"
          pendingLabel="Deleting..."
          pending={isLoading}
          onConfirm={confirm}
        />
      </OnceOpened>
    </>
  );
}
