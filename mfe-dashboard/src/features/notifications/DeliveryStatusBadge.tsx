import { DELIVERY_STATUS_LABELS, type DeliveryStatus } from '@cbh/contracts';
import { Badge, theme } from '@cbh/ui';

/** As the site colours statuses (spec §4): delivered green, pending yellow, in progress blue, failed red, the rest grey. */
const STATUS_COLORS: Record<DeliveryStatus, string> = {
  delivered: theme.colors.success,
  pending: theme.colors.yellow,
  delivering: theme.colors.primary,
  failed: theme.colors.destructive,
  muted: theme.colors.grey,
  suppressed: theme.colors.grey,
};

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return (
    <Badge $color={STATUS_COLORS[status]} data-testid="delivery-status">
      {DELIVERY_STATUS_LABELS[status]}
    </Badge>
  );
}
