import { useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useControlBreakerMutation } from '@cbh/api-client';
import { OVERRIDE_LABEL, STATE_LABEL } from '@cbh/breaker-widgets';
import { MANUAL_ACTION_TEXT, MANUAL_ACTIONS, type BreakerConfigView, type BreakerOverride, type ManualAction } from '@cbh/contracts';
import { Button, Card, Muted, SectionTitle, toast } from '@cbh/ui';
import { ConfirmDialog, OnceOpened } from './lazy-dialogs';

const Buttons = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  margin-top: 12px;
`;

/** The override each control sets: its button is disabled while that override already holds. */
const SETS: Partial<Record<ManualAction, BreakerOverride>> = {
  'force-open': 'forced-open',
  'force-closed': 'forced-closed',
  disable: 'disabled',
};

/**
 * Force open, force closed, disable, reset — for circuit_breaker_operate holders. They act on live traffic on every
 * replica, so each asks first, saying what it will do.
 */
export function ManualControls({ breaker, override }: { breaker: BreakerConfigView; override: BreakerOverride }) {
  const [asking, setAsking] = useState<ManualAction | null>(null);
  const [control, { isLoading }] = useControlBreakerMutation();
  const text = asking ? MANUAL_ACTION_TEXT[asking] : null;

  const confirm = async () => {
    if (!asking) return;
    try {
      const result = await control({ id: breaker.id, action: asking }).unwrap();
      toast({
        title: MANUAL_ACTION_TEXT[asking].done,
        description: `${result.name} is ${STATE_LABEL[result.state]} now; override: ${OVERRIDE_LABEL[result.override]}.`,
      });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'The control could not be applied.', variant: 'destructive' });
    }
    setAsking(null);
  };

  return (
    <Card aria-labelledby="manual-control-title">
      <SectionTitle id="manual-control-title">Manual control</SectionTitle>
      <p style={{ margin: 0 }} data-testid="current-override">
        Override: <strong>{OVERRIDE_LABEL[override]}</strong>
      </p>
      <Muted style={{ fontSize: 13 }}>An override wins over the automatic state until the breaker is reset.</Muted>
      {breaker.source === 'agent' ? (
        <Muted style={{ fontSize: 13, marginTop: 4 }}>
          Sent to every instance of {breaker.service}: each applies it in the answer to its next report.
        </Muted>
      ) : null}
      <Buttons>
        {MANUAL_ACTIONS.map((action) => (
          <Button key={action} $variant="outline" onClick={() => setAsking(action)} disabled={SETS[action] === override}>
            {MANUAL_ACTION_TEXT[action].label}
          </Button>
        ))}
      </Buttons>
      <OnceOpened open={text !== null}>
        <ConfirmDialog
          open={text !== null}
          onOpenChange={(open) => (open ? undefined : setAsking(null))}
          title={text ? `${text.label} “${breaker.name}”?` : ''}
          description={text?.effect ?? ''}
          confirmLabel={text?.label ?? ''}
          pendingLabel="Applying..."
          pending={isLoading}
          onConfirm={confirm}
        />
      </OnceOpened>
    </Card>
  );
}
