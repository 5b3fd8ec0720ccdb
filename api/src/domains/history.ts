import type { PrunableHistory } from '../platform';

/** What of this context's tables is history, for retention to prune (see PrunableHistory; raw results: DomainChecksRepository.pruneOld). */
export const DOMAIN_HISTORY: PrunableHistory[] = [
  { kind: 'checkResults', table: 'domain_check_buckets', old: 'minute < now() - make_interval(days => $1)', days: 'checkResultDays' },
];
