import { z } from 'zod';
import {
  BREAKER_SETTING_LIMITS,
  BREAKER_SOURCES,
  BREAKER_TYPES,
  type BreakerCoreSettings,
  type BreakerOverride,
  type BreakerSource,
  type BreakerStateName,
  type BreakerTypeName,
} from './breaker-vocabulary';
import { HISTORY_RANGE_NAMES, type HistoryRange } from './history-ranges';
import { listPageQuerySchema, pageCursor, pageLimit } from './paging';

const L = BREAKER_SETTING_LIMITS;
const int = (min: number, max: number, unit = '') =>
  z
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}${unit}`)
    .max(max, `must be at most ${max}${unit}`);
const millis = (limits: { min: number; max: number; step: number }) =>
  int(limits.min * 1000, limits.max * 1000, ' ms').multipleOf(limits.step * 1000, `must be a multiple of ${limits.step * 1000} ms`);

export const breakerSettingsSchema = z.strictObject({
  failureThreshold: int(L.failureThreshold.min, L.failureThreshold.max),
  timeout: millis(L.timeoutSeconds),
  recoveryTime: millis(L.recoveryTimeSeconds),
  successThreshold: int(L.successThreshold.min, L.successThreshold.max),
}) satisfies z.ZodType<BreakerCoreSettings>;

/** Everything a breaker is built from: its type, the four settings and the type's own. */
export interface BreakerSettings extends BreakerCoreSettings {
  type: BreakerTypeName;
  /** adaptive: calls in the window before the rate counts. Default 10. */
  minimumCalls?: number;
  /** adaptive: a call slower than this counts as a failure (ms). Default 1000. */
  slowCallDuration?: number;
  /** bulkhead: calls allowed in flight at once. Default 10. */
  maxConcurrentCalls?: number;
  /** bulkhead: calls that may wait for a free slot. Default 0. */
  maxQueue?: number;
}

/** One move of a breaker from one state to another: the stateChange message, and a journal row without its id. */
export interface BreakerTransition {
  configId: number;
  from: BreakerStateName;
  to: BreakerStateName;
  reason: string;
  /** ISO 8601 */
  at: string;
  /** The API replica whose breaker moved (the journal column allows none). */
  instanceId: string | null;
  /** The service instance a reported move happened on (agent and scraped breakers), null for the hub's own. */
  serviceInstance?: string | null;
  /** stateChange only: the override after the move; other replicas follow an OPEN only when it is none (an automatic trip). */
  override?: BreakerOverride;
  /** stateChange to OPEN only: when the breaker lets a trial call through (ISO 8601), which other replicas keep too. */
  openUntil?: string;
  /**
   * stateChange of a manual control only: the id of the account that used it, so that its own screens can tell its
   * moves from others' (the reason names people by name or role, which two accounts may share). Not journalled.
   */
  actorId?: string;
}

/** A row of the transition journal. */
export interface JournalEntry extends BreakerTransition {
  id: number;
}

/** GET /api/circuit-breakers/{id}/transitions?limit=&before=: newest first; `nextBefore` asks for the page of older rows. */
export interface JournalPage {
  transitions: JournalEntry[];
  /** Pass as `before` for the next, older page; null on the last page. */
  nextBefore: number | null;
}

export const JOURNAL_PAGE_LIMITS = { default: 100, max: 500 } as const;

export const journalQuerySchema = z.strictObject({
  limit: pageLimit(JOURNAL_PAGE_LIMITS),
  before: pageCursor('a journal row id'),
});

/** GET /api/circuit-breakers/{id}/history?range=: one of the spans the page offers, one hour when absent. */
export const historyQuerySchema = z.strictObject({
  range: z
    .enum(HISTORY_RANGE_NAMES as [HistoryRange, ...HistoryRange[]], { message: `must be one of ${HISTORY_RANGE_NAMES.join(', ')}` })
    .default('1h'),
});
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

/** PATCH /api/circuit-breakers/{id}: any of the four settings, at least one. */
export const updateBreakerSettingsSchema = breakerSettingsSchema.partial().refine((value) => Object.keys(value).length > 0, {
  message: 'send at least one of failureThreshold, timeout, recoveryTime, successThreshold',
});

export const createBreakerSchema = breakerSettingsSchema.extend({
  name: z.string().trim().min(1, 'is required').max(100),
  type: z.enum(BREAKER_TYPES, { message: `must be one of ${BREAKER_TYPES.join(', ')}` }),
  maxConcurrentCalls: int(1, 1000).optional(),
  maxQueue: int(0, 1000).optional(),
  minimumCalls: int(1, 1000).optional(),
  slowCallDuration: int(10, 60_000, ' ms').optional(),
});

/** GET /api/circuit-breakers: a page, optionally only one source's or one service's breakers. */
export const breakerListQuerySchema = listPageQuerySchema.extend({
  source: z.enum(BREAKER_SOURCES, { message: `must be one of ${BREAKER_SOURCES.join(', ')}` }).optional(),
  service: z.string().min(1).max(200).optional(),
});
export type BreakerListQuery = z.infer<typeof breakerListQuerySchema>;

/**
 * PATCH /api/circuit-breakers/{id} of an agent's breaker: settings in its library's words (opossum's
 * errorThresholdPercentage, cockatiel's halfOpenAfter…), pushed to every instance; the agent says which it took.
 */
export const updateLibrarySettingsSchema = z.strictObject({
  librarySettings: z
    .record(z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,63}$/, 'must be a setting name'), z.number().finite().min(0).max(1e9))
    .refine((value) => Object.keys(value).length > 0 && Object.keys(value).length <= 20, { message: 'send 1 to 20 settings' }),
});

export const breakerIdSchema = z.coerce
  .number({ message: 'must be a breaker id' })
  .int('must be a breaker id')
  .positive('must be a breaker id');

export interface BreakerConfigView extends BreakerCoreSettings {
  id: number;
  name: string;
  type: BreakerTypeName;
  maxConcurrentCalls: number | null;
  maxQueue: number | null;
  minimumCalls: number | null;
  slowCallDuration: number | null;
  state: BreakerStateName;
  override: BreakerOverride;
  /** Raised by every change of the configuration or its override, in commit order: replicas apply only newer ones. */
  version: number;
  /** Where the breaker runs (hub, agent or scrape) and, outside the hub, for which service. */
  source: BreakerSource;
  service: string | null;
  /** Outside the hub: the library (opossum, cockatiel, cbh, resilience4j), its kind of breaker and its settings in its own words (those the hub set, else those last reported). */
  library: string | null;
  libraryType: string | null;
  librarySettings: Record<string, number | string | boolean> | null;
  createdAt: string;
  updatedAt: string;
}
