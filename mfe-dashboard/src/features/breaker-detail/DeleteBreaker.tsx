import { useState } from 'react';
import { apiErrorMessage, useDeleteBreakerMutation, useGetServicesQuery } from '@cbh/api-client';
import { ROUTES, type BreakerConfigView } from '@cbh/contracts';
import { useNavigate } from '@cbh/router';
import styled from 'styled-components';
import { Button, Card, Muted, plural, SectionTitle, theme, toast } from '@cbh/ui';
import { ConfirmDialog, OnceOpened } from './lazy-dialogs';

const DangerCard = styled(Card)`
  border-color: ${theme.colors.destructive};
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  > div {
    flex: 1 1 16rem;
  }
`;
const DeleteButton = styled(Button)`
  background: ${theme.colors.destructive};
  border-color: ${theme.colors.destructive};
  color: ${theme.colors.primaryText};
`;

/**
 * The danger zone at the bottom of the page: deletes the breaker after a confirmation naming it; the API refuses (409, with its reason) while a load test runs.
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
    <DangerCard aria-labelledby="danger-zone-title">
      <div>
        <SectionTitle id="danger-zone-title">Danger zone</SectionTitle>
        <Muted style={{ margin: 0, fontSize: 14 }}>
          {breaker.source === 'hub'
            ? 'Delete this circuit breaker with its transition journal and load-test history. This cannot be undone.'
            : `Delete the hub’s record of this breaker and its journal; ${breaker.service ?? 'its service'} keeps running it and reports it again.`}
        </Muted>
      </div>
      <DeleteButton onClick={() => setConfirming(true)}>Delete</DeleteButton>
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
    </DangerCard>
  );
}
