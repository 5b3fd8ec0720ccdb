import { Fragment, useReducer, useRef, useState } from 'react';
import styled from 'styled-components';
import type { BreakerStateName } from '@cbh/contracts';
import { CircuitBreaker, ConsecutiveFailures, REJECTION_MESSAGES } from '@cbh/breaker';
import { Button, Card, Muted, STATE_COLORS, theme } from '@cbh/ui';
import { SAMPLE_SETTINGS } from './PatternTypeCards';

const Nodes = styled.ol`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;
  list-style: none;
  padding: 0;
  margin: 0 0 16px;
`;
const Node = styled.li<{ $color: string; $current: boolean }>`
  padding: 10px 16px;
  border-radius: ${theme.radius};
  border: 2px solid ${({ $color }) => $color};
  background: ${({ $color, $current }) => ($current ? $color : theme.colors.surface)};
  color: ${({ $current }) => ($current ? theme.colors.primaryText : theme.colors.text)};
  font-weight: 600;
`;
const Arrow = styled.li`
  color: ${theme.colors.muted};
`;
const Controls = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  margin: 12px 0;
`;
const Log = styled.ol`
  margin: 0;
  padding-left: 20px;
  max-height: 10rem;
  overflow-y: auto;
  font-size: 13px;
`;

/** The taught breaker, with the sample defaults (threshold 5, timeout 30 s): one successful trial call closes it again. */
const SETTINGS = { type: 'simple' as const, ...SAMPLE_SETTINGS, recoveryTime: 60_000, successThreshold: 1 };
const ORDER: BreakerStateName[] = ['CLOSED', 'OPEN', 'HALF_OPEN'];
const LABEL: Record<BreakerStateName, string> = { CLOSED: 'CLOSED', OPEN: 'OPEN', HALF_OPEN: 'HALF-OPEN' };

interface Step {
  text: string;
}

/** A real breaker from libs/breaker on a clock the learner moves: send calls, wait out the timeout, watch it move. */
export function BreakerDiagram() {
  const clock = useRef({
    time: 0,
    now() {
      return this.time;
    },
  });
  const steps = useRef<Step[]>([]);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [breaker] = useState(() => {
    const created = new CircuitBreaker(SETTINGS, clock.current);
    created.onTransition((transition) =>
      steps.current.unshift({ text: `${LABEL[transition.from]} → ${LABEL[transition.to]}: ${transition.reason}` }),
    );
    return created;
  });

  const call = (success: boolean) => {
    const admission = breaker.admit();
    if (admission !== 'permitted') {
      steps.current.unshift({ text: `Call rejected at once: Error('${REJECTION_MESSAGES[admission]}')` });
    } else {
      breaker.record(success);
      steps.current.unshift({ text: success ? 'Call succeeded' : 'Call failed' });
    }
    rerender();
  };
  const wait = () => {
    clock.current.time += SETTINGS.timeout;
    steps.current.unshift({ text: `${SETTINGS.timeout / 1000} s passed` });
    breaker.tick(); // the timeout has passed: OPEN → HALF_OPEN
    rerender();
  };
  const reset = () => {
    breaker.reset();
    steps.current = [{ text: 'Breaker reset' }];
    rerender();
  };

  const state = breaker.state;
  const failures = breaker.policy instanceof ConsecutiveFailures ? breaker.policy.consecutiveFailures : 0;
  const nextAttempt = breaker.nextAttemptAt;

  return (
    <Card aria-label="Breaker playground">
      <h3>Try it: step a breaker through its states</h3>
      <Nodes aria-label="Breaker states">
        {ORDER.map((name, index) => (
          <Fragment key={name}>
            {index > 0 ? <Arrow aria-hidden>→</Arrow> : null}
            <Node $color={STATE_COLORS[name]} $current={state === name} aria-current={state === name ? 'step' : undefined}>
              {LABEL[name]}
            </Node>
          </Fragment>
        ))}
      </Nodes>
      <p role="status" data-testid="diagram-status" style={{ margin: 0 }}>
        State <strong>{LABEL[state]}</strong> · consecutive failures {failures} of {SETTINGS.failureThreshold}
        {nextAttempt !== null ? ` · next attempt in ${Math.max(0, (nextAttempt - clock.current.time) / 1000)} s` : ''}
      </p>
      <Controls>
        <Button onClick={() => call(true)}>Send successful call</Button>
        <Button $variant="outline" onClick={() => call(false)}>
          Send failing call
        </Button>
        <Button $variant="outline" onClick={wait}>
          Wait {SETTINGS.timeout / 1000} s
        </Button>
        <Button $variant="ghost" onClick={reset}>
          Reset
        </Button>
      </Controls>
      {steps.current.length ? (
        <Log aria-label="What happened" reversed>
          {steps.current.map((step, index) => (
            <li key={steps.current.length - index}>{step.text}</li>
          ))}
        </Log>
      ) : (
        <Muted style={{ fontSize: 13 }}>Send {SETTINGS.failureThreshold} failing calls to open it.</Muted>
      )}
    </Card>
  );
}
