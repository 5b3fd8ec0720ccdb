import { Fragment, type ReactNode } from 'react';
import styled from 'styled-components';
import type { BreakerStateName } from '@cbh/contracts';
import { STATE_COLORS, theme } from '@cbh/ui';

/** A state as the diagrams and journals write it. */
export const STATE_LABEL: Record<BreakerStateName, string> = { CLOSED: 'CLOSED', OPEN: 'OPEN', HALF_OPEN: 'HALF-OPEN' };

/** Left to right, the way a breaker trips: each forward arrow says what moves it on. */
const FLOW = [
  { state: 'CLOSED', next: 'failures reach the threshold' },
  { state: 'OPEN', next: 'the timeout elapses' },
  { state: 'HALF_OPEN', next: null },
] as const;
/** The trial calls decide where HALF-OPEN goes back to. */
const RETURNS = [
  { to: 'CLOSED', when: 'trial calls succeed' },
  { to: 'OPEN', when: 'a trial call fails' },
] as const;

// Stacks top to bottom when its own box is narrow (a phone, or a narrow column), whatever the window's width.
const NARROW = '@container (max-width: 540px)';
const Figure = styled.figure`
  container-type: inline-size;
  margin: 0;
  display: grid;
  gap: 10px;
`;
const Flow = styled.ol`
  display: flex;
  align-items: center;
  gap: 8px;
  list-style: none;
  padding: 0;
  margin: 0;
  ${NARROW} {
    flex-direction: column;
    align-items: stretch;
    text-align: center;
  }
`;
const StateNode = styled.li<{ $color: string; $current: boolean }>`
  flex: none;
  padding: 10px 16px;
  border-radius: ${theme.radius};
  border: 2px solid ${({ $color }) => $color};
  background: ${({ $color, $current }) => ($current ? $color : theme.colors.surface)};
  color: ${({ $current }) => ($current ? theme.colors.primaryText : theme.colors.text)};
  box-shadow: ${({ $color, $current }) => ($current ? `0 0 0 3px ${$color}40` : 'none')};
  font-weight: 600;
`;
const takenStyle = ({ $taken }: { $taken: boolean }) => `
  font-size: 12px;
  line-height: 1.25;
  color: ${$taken ? theme.colors.primary : theme.colors.muted};
  font-weight: ${$taken ? 700 : 400};
`;
// the label sits under its arrow, two short lines, so the row fits in about 540 px
const Arrow = styled.li<{ $taken: boolean }>`
  ${takenStyle}
  display: flex;
  flex-direction: column;
  align-items: center;
  max-width: 8em;
  text-align: center;
  ${NARROW} {
    flex-direction: row;
    justify-content: center;
    gap: 6px;
    max-width: none;
  }
`;
const Glyph = styled.span<{ $turns?: boolean }>`
  font-size: 18px;
  ${NARROW} {
    transform: ${({ $turns }) => ($turns ? 'rotate(90deg)' : 'none')};
  }
`;
const Returns = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 4px 16px;
  list-style: none;
  padding: 0;
  margin: 0;
`;
const Return = styled.li<{ $taken: boolean }>`
  ${takenStyle}
  display: flex;
  align-items: center;
  gap: 4px;
`;
const Caption = styled.figcaption`
  font-size: 14px;
  overflow-wrap: anywhere;
`;

const taken = (from: BreakerStateName | null | undefined, to: BreakerStateName, arrowFrom: BreakerStateName, arrowTo: BreakerStateName) =>
  from === arrowFrom && to === arrowTo;

export interface BreakerStateDiagramProps {
  /** The state lit (aria-current="step"). */
  state: BreakerStateName;
  /** Where it came from: the arrow of that move is highlighted when the diagram has one (manual moves may not). */
  from?: BreakerStateName | null;
  /** One line under the diagram, e.g. the reason of the move. */
  caption?: ReactNode;
}

/**
 * CLOSED → OPEN → HALF-OPEN and back, with the current state lit: the one drawing of the state machine, shared by
 * the learning page's playground and the transition-journal replay so both teach the same picture.
 */
export function BreakerStateDiagram({ state, from, caption }: BreakerStateDiagramProps) {
  return (
    <Figure aria-label="Circuit breaker state diagram">
      <Flow aria-label="Breaker states">
        {FLOW.map((node, index) => {
          const next = FLOW[index + 1];
          return (
            <Fragment key={node.state}>
              <StateNode
                $color={STATE_COLORS[node.state]}
                $current={state === node.state}
                aria-current={state === node.state ? 'step' : undefined}
              >
                {STATE_LABEL[node.state]}
              </StateNode>
              {next && node.next ? (
                <Arrow $taken={taken(from, state, node.state, next.state)}>
                  <Glyph aria-hidden $turns>
                    →
                  </Glyph>
                  {node.next}
                </Arrow>
              ) : null}
            </Fragment>
          );
        })}
      </Flow>
      <Returns aria-label="From HALF-OPEN">
        {RETURNS.map((back) => (
          <Return key={back.to} $taken={taken(from, state, 'HALF_OPEN', back.to)}>
            <Glyph aria-hidden>↩</Glyph>
            back to {STATE_LABEL[back.to]} when {back.when}
          </Return>
        ))}
      </Returns>
      {caption ? <Caption data-testid="diagram-caption">{caption}</Caption> : null}
    </Figure>
  );
}
