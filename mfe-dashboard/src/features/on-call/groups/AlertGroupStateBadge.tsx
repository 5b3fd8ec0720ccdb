import { ALERT_GROUP_STATE_LABELS, type AlertGroupState } from '@cbh/contracts';
import { Badge } from '@cbh/ui';
import { ALERT_GROUP_STATE_COLORS } from './alert-group-text';

/** A group's state in words on its colour: the words carry it for those who cannot tell the colours apart. */
export function AlertGroupStateBadge({ state }: { state: AlertGroupState }) {
  return (
    <Badge $color={ALERT_GROUP_STATE_COLORS[state]} data-testid="alert-group-state">
      {ALERT_GROUP_STATE_LABELS[state]}
    </Badge>
  );
}
