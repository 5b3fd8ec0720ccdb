// No schema library here: the screens import these words, and a module with schemas would bring one along.

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
