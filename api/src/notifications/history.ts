import type { PrunableHistory } from '../platform';

/** What of this context's tables is history, for retention to prune (see PrunableHistory). */
export const NOTIFICATION_HISTORY: PrunableHistory[] = [
  // a delivery still waiting for a try is kept whatever its age; a muted or suppressed one is history like the rest
  {
    kind: 'notifications',
    table: 'notification_deliveries',
    old: "status NOT IN ('pending', 'delivering') AND created_at < now() - make_interval(days => $1)",
    days: 'notificationDays',
  },
  {
    kind: 'notifications',
    table: 'notification_events',
    old: 'dispatched_at < now() - make_interval(days => $1)',
    days: 'notificationDays',
  },
];
