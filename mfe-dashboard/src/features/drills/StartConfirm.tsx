import styled from 'styled-components';
import type { CreateDrill } from '@cbh/contracts';
import { plural } from '@cbh/ui';
import { ConfirmDialog } from '@cbh/ui/overlays';
import type { BreakerChoices } from './breaker-choices';
import { blastRadius } from './drill-text';

// lines of the dialog's one paragraph (its description is a <p>): a list there would not be valid HTML
const Line = styled.span`
  display: block;
  margin-top: 6px;
  &:first-child {
    margin-top: 0;
  }
`;

/**
 * The last word before a drill hurts real traffic: what each step does, where and for how long, in words. Cancel goes
 * back to the form, the draft kept.
 */
export function StartConfirm({
  body,
  choices,
  pending,
  onConfirm,
  onCancel,
}: {
  body: CreateDrill;
  choices: BreakerChoices;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const total = body.steps.reduce((sum, step) => sum + step.durationSeconds, 0);
  const expectations = body.expectations?.length ?? 0;
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onCancel())}
      title="Start drill"
      description={
        <>
          <Line>
            “{body.name}” injects faults into real traffic, one step after the other, for {total} s in all:
          </Line>
          {body.steps.map((step, index) => {
            const breaker = choices.byId.get(String(step.breaker)) ?? { name: `breaker ${String(step.breaker)}`, service: null };
            return (
              <Line key={index} data-testid="blast-radius">
                Step {index + 1}: {blastRadius({ ...step, breaker })}
              </Line>
            );
          })}
          <Line>
            {expectations ? `Then ${plural(expectations, 'expectation')} judge how the breakers reacted.` : 'It sets no expectations.'}
          </Line>
        </>
      }
      confirmLabel="Start drill"
      pendingLabel="Starting..."
      pending={pending}
      onConfirm={onConfirm}
    />
  );
}
