import { TOKEN_PRUNE_AFTER_DAYS } from '@cbh/contracts';
import type { PrunableHistory } from '../platform';

/** Only the current minute's rate-limit counts are read; an hour leaves room for replicas whose clocks differ. */
const TOKEN_USAGE_KEPT = '1 hour';

/** What of this context's tables is history, for retention to prune (see PrunableHistory). */
export const IDENTITY_HISTORY: PrunableHistory[] = [
  { kind: 'audit', table: 'audit_entries', old: 'created_at < now() - make_interval(days => $1)', days: 'auditDays' },
  // a token's usage counts go with it (ON DELETE CASCADE)
  {
    kind: 'expiredTokens',
    table: 'api_tokens',
    old: `expires_at < now() - make_interval(days => ${TOKEN_PRUNE_AFTER_DAYS})`,
    days: null,
  },
  { kind: 'tokenUsage', table: 'api_token_usage', old: `window_start < now() - interval '${TOKEN_USAGE_KEPT}'`, days: null },
];
