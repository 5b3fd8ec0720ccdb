import type { DrillState, DrillVerdict } from '@cbh/contracts';
import { Badge } from '@cbh/ui';
import { STATE_COLORS, STATE_TEXT, VERDICT_COLORS, VERDICT_TEXT } from './drill-text';

/** A drill's state in words, in its colour (the words carry it: colour alone tells no one who cannot see it). */
export function DrillStateBadge({ state }: { state: DrillState }) {
  return (
    <Badge $color={STATE_COLORS[state]} data-testid="drill-state">
      {STATE_TEXT[state]}
    </Badge>
  );
}

/** Whether the expectations held (a drill's, or one expectation's), likewise. */
export function VerdictBadge({ verdict }: { verdict: DrillVerdict }) {
  return (
    <Badge $color={VERDICT_COLORS[verdict]} data-testid="drill-verdict">
      {VERDICT_TEXT[verdict]}
    </Badge>
  );
}
