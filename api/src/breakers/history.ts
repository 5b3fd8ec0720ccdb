import type { PrunableHistory } from '../platform';

/** What of this context's tables is history, for retention to prune (see PrunableHistory). */
export const BREAKER_HISTORY: PrunableHistory[] = [
  // calls through the breakers, of load tests and service tests, per second and replica
  { kind: 'checkResults', table: 'metric_buckets', old: 'second < now() - make_interval(days => $1)', days: 'checkResultDays' },
  {
    kind: 'checkResults',
    table: 'test_sessions',
    old: "status <> 'running' AND coalesce(stopped_at, ends_at) < now() - make_interval(days => $1)",
    days: 'checkResultDays',
  },
  { kind: 'transitions', table: 'breaker_transitions', old: 'at < now() - make_interval(days => $1)', days: 'transitionDays' },
];
