// No schema library here: the screens import these words, and a module with schemas would bring one along.
import type { Permission } from './roles';

/** Items one bulk request may name. */
export const BULK_MAX_IDS = 500;

/** POST /api/circuit-breakers/bulk: the manual controls and delete. */
export const BREAKER_BULK_ACTIONS = ['force-open', 'force-closed', 'disable', 'reset', 'delete'] as const;
export type BreakerBulkAction = (typeof BREAKER_BULK_ACTIONS)[number];

/** POST /api/domains/bulk */
export const DOMAIN_BULK_ACTIONS = ['verify', 'delete'] as const;
export type DomainBulkAction = (typeof DOMAIN_BULK_ACTIONS)[number];

/** One item's outcome: each succeeds or fails on its own, with the status and message its single request would answer. */
export interface BulkItemOutcome {
  id: number;
  ok: boolean;
  status: number;
  message?: string;
}

/** The answer of a bulk request: one outcome per id, in the order asked. */
export interface BulkResult {
  results: BulkItemOutcome[];
}

/**
 * The permission each breaker action needs on top of bulk_operations: the one its single route needs (an operator
 * runs the breakers, an administrator deletes them).
 */
export const BREAKER_BULK_PERMISSIONS: Record<BreakerBulkAction, Permission> = {
  'force-open': 'circuit_breaker_operate',
  'force-closed': 'circuit_breaker_operate',
  disable: 'circuit_breaker_operate',
  reset: 'circuit_breaker_operate',
  delete: 'circuit_breaker_admin',
};

/** The permission each domain action needs on top of bulk_operations, as its single route. */
export const DOMAIN_BULK_PERMISSIONS: Record<DomainBulkAction, Permission> = {
  verify: 'domain_management',
  delete: 'domain_management',
};

/** Each breaker action's button, what its confirmation says it does to the chosen breakers, and its summary's verb. */
export const BREAKER_BULK_TEXT: Record<BreakerBulkAction, { label: string; effect: string; done: string }> = {
  'force-open': {
    label: 'Force open',
    effect: 'Every call through them is refused at once, on every replica, until they are reset or forced closed.',
    done: 'forced open',
  },
  'force-closed': {
    label: 'Force closed',
    effect: 'Every call goes through, on every replica, however many fail: failures cannot open them until they are reset.',
    done: 'forced closed',
  },
  disable: {
    label: 'Disable',
    effect: 'They stop protecting: every call goes through unguarded on every replica and they count nothing until they are reset.',
    done: 'disabled',
  },
  reset: {
    label: 'Reset',
    effect: 'Back to CLOSED with their counts and any override cleared on every replica: calls flow again and failures count afresh.',
    done: 'reset',
  },
  delete: {
    label: 'Delete',
    effect: 'Their configurations, journals and load-test history are deleted for good; one a load test runs through is kept.',
    done: 'deleted',
  },
};

/** Each domain action's button, what its confirmation says it does to the chosen domains, and its summary's verb. */
export const DOMAIN_BULK_TEXT: Record<DomainBulkAction, { label: string; effect: string; done: string }> = {
  verify: {
    label: 'Verify',
    effect: "Each one's TXT record is looked up again in its next round, which starts at once.",
    done: 'sent for verification',
  },
  delete: {
    label: 'Delete',
    effect: 'Their verification, certificates, DNS records, checks and alerts are deleted with them, for good.',
    done: 'deleted',
  },
};

/** Items a summary or a confirmation names one by one; the rest are counted. */
const NAMED_ITEMS = 3;

/** One line for a bulk answer: '3 forced open', or '2 deleted, 1 failed: Circuit breaker Orders has a load test running…'. */
export function bulkSummary({ results }: BulkResult, done: string): string {
  const failed = results.filter((result) => !result.ok);
  const head = `${results.length - failed.length} ${done}`;
  if (failed.length === 0) return head;
  const named = failed.slice(0, NAMED_ITEMS).map((result) => result.message ?? `item ${result.id} answered ${result.status}`);
  const more = failed.length > NAMED_ITEMS ? `; and ${failed.length - NAMED_ITEMS} more` : '';
  return `${head}, ${failed.length} failed: ${named.join('; ')}${more}`;
}

/** The items a confirmation names: 'payments, search and orders', or the first three 'and 2 more'. */
export function bulkItemNames(names: readonly string[]): string {
  if (names.length <= NAMED_ITEMS) {
    return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  }
  return `${names.slice(0, NAMED_ITEMS).join(', ')} and ${names.length - NAMED_ITEMS} more`;
}
