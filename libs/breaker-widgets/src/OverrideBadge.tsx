import type { BreakerOverride } from '@cbh/contracts';
import { Badge, theme } from '@cbh/ui';

export const OVERRIDE_LABEL: Record<BreakerOverride, string> = {
  none: 'none',
  'forced-open': 'forced open',
  'forced-closed': 'forced closed',
  disabled: 'disabled',
};

/** An operator's override, next to the state it overrules; nothing when there is none. */
export function OverrideBadge({ override }: { override: BreakerOverride }) {
  if (override === 'none') return null;
  return (
    <Badge $color={theme.colors.orange} data-testid="override-badge">
      Override: {OVERRIDE_LABEL[override]}
    </Badge>
  );
}
