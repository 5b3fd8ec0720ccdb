import type { ComponentState } from '@cbh/contracts';
import { Badge } from '@cbh/ui';
import { STATE_COLORS, stateLabel } from './status-text';

/** A component's or a page's state: its colour and its words ("Partial outage"). */
export function ComponentStateBadge({ state }: { state: ComponentState }) {
  return (
    <Badge $color={STATE_COLORS[state]} data-testid="component-state" data-state={state}>
      {stateLabel(state)}
    </Badge>
  );
}
