import { useReducer, useRef, useState } from 'react';
import styled from 'styled-components';
import { CircuitBreaker, ConsecutiveFailures, REJECTION_MESSAGES, type Transition } from '@cbh/breaker';
import { BreakerStateDiagram, STATE_LABEL as LABEL } from '@cbh/breaker-widgets';
import { Button, Card, Muted } from '@cbh/ui';
import { SAMPLE_SETTINGS } from './PatternTypeCards';

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
  // the diagram lights the arrow of the last move and shows its reason
  const lastMove = useRef<Transition | null>(null);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [breaker] = useState(() => {
    const created = new CircuitBreaker(SETTINGS, clock.current);
    created.onTransition((transition) => {
      lastMove.current = transition;
      steps.current.unshift({ text: `${LABEL[transition.from]} → ${LABEL[transition.to]}: ${transition.reason}` });
    });
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
    lastMove.current = null;
    steps.current = [{ text: 'Breaker reset' }];
    rerender();
  };

  const state = breaker.state;
  const failures = breaker.policy instanceof ConsecutiveFailures ? breaker.policy.consecutiveFailures : 0;
  const nextAttempt = breaker.nextAttemptAt;

  return (
    <Card aria-label="Breaker playground">
      <h3>Try it: step a breaker through its states</h3>
      <BreakerStateDiagram state={state} from={lastMove.current?.from} caption={lastMove.current?.reason} />
      <p role="status" data-testid="diagram-status" style={{ margin: '12px 0 0' }}>
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
