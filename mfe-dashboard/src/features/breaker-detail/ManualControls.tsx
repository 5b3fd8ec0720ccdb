import { useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useControlBreakerMutation } from '@cbh/api-client';
import { OVERRIDE_LABEL, STATE_LABEL } from '@cbh/breaker-widgets';
import { MANUAL_ACTION_TEXT, MANUAL_ACTIONS, type BreakerConfigView, type BreakerOverride, type ManualAction } from '@cbh/contracts';
import { Button, Card, Muted, SectionTitle, theme, toast } from '@cbh/ui';
import { ConfirmDialog, OnceOpened } from './lazy-dialogs';

const Controls = styled.ul`
  display: grid;
  gap: 12px;
  list-style: none;
  margin: 12px 0 0;
  padding: 0;
  li {
    display: grid;
    gap: 4px;
    justify-items: start;
  }
  p {
    margin: 0;
    font-size: 13px;
    color: ${theme.colors.muted};
  }
`;
/** What each control risks: force open refuses every call (the dangerous one); force closed and disable let every call through unguarded. */
type Consequence = 'dangerous' | 'unguarded' | 'restoring';
const CONSEQUENCE: Record<ManualAction, Consequence> = {
  'force-open': 'dangerous',
  'force-closed': 'unguarded',
  disable: 'unguarded',
  reset: 'restoring',
};
const ControlButton = styled(Button)<{ $consequence: Consequence }>`
  ${({ $consequence }) =>
    $consequence === 'dangerous'
      ? `background: ${theme.colors.destructive}; border-color: ${theme.colors.destructive}; color: ${theme.colors.primaryText};`
      : $consequence === 'unguarded'
        ? `border-color: ${theme.colors.halfOpen}; color: ${theme.colors.halfOpen};`
        : ''}
`;

/** The override each control sets: its button is disabled while that override already holds. */
const SETS: Partial<Record<ManualAction, BreakerOverride>> = {
  'force-open': 'forced-open',
  'force-closed': 'forced-closed',
  disable: 'disabled',
};

/**
 * Force open, force closed, disable, reset — for circuit_breaker_operate holders, each with a line saying what it
 * does and styled by its consequence (force open, which refuses every call, as the dangerous one). They act on live
 * traffic on every replica, so each asks first, saying what it will do.
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
      <Controls>
        {MANUAL_ACTIONS.map((action) => (
          <li key={action} data-consequence={CONSEQUENCE[action]}>
            <ControlButton
              $variant={action === 'reset' ? 'primary' : 'outline'}
              $consequence={CONSEQUENCE[action]}
              onClick={() => setAsking(action)}
              disabled={SETS[action] === override}
              aria-describedby={`manual-effect-${action}`}
            >
              {MANUAL_ACTION_TEXT[action].label}
            </ControlButton>
            <p id={`manual-effect-${action}`}>{MANUAL_ACTION_TEXT[action].effect}</p>
          </li>
        ))}
      </Controls>
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
