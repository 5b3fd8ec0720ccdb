import { z } from 'zod';
import { pageCursor, pageLimit } from './paging';

/*
 * The breaker's vocabulary, defined once: the engine in libs/breaker, the API and the screens all import it
 * from here, because these words are also what travels over REST and /ws.
 */

export const BREAKER_TYPES = ['simple', 'adaptive', 'bulkhead'] as const;
export type BreakerTypeName = (typeof BREAKER_TYPES)[number];

/** CLOSED (normal), HALF_OPEN (testing recovery), OPEN (fail fast). */
export const BREAKER_STATES = ['CLOSED', 'HALF_OPEN', 'OPEN'] as const;
export type BreakerStateName = (typeof BREAKER_STATES)[number];

/** A manual override, as resilience4j's actuator offers: none, forced open, forced closed, or disabled. */
export const BREAKER_OVERRIDES = ['none', 'forced-open', 'forced-closed', 'disabled'] as const;
export type BreakerOverride = (typeof BREAKER_OVERRIDES)[number];

/**
 * The settings sliders' ranges, steps and defaults (timeout and recovery time in seconds); the API stores
 * timeout and recoveryTime in milliseconds.
 */
export const BREAKER_SETTING_LIMITS = {
  failureThreshold: { min: 1, max: 20, step: 1, default: 5 },
  timeoutSeconds: { min: 5, max: 120, step: 5, default: 30 },
  recoveryTimeSeconds: { min: 10, max: 300, step: 10, default: 60 },
  successThreshold: { min: 1, max: 10, step: 1, default: 3 },
} as const;

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
});

/** The four settings every type has, in milliseconds where they are times: what the sliders edit and PATCH sends. */
export type BreakerCoreSettings = z.infer<typeof breakerSettingsSchema>;

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
  /** stateChange only: the override after the move; other replicas follow an OPEN only when it is none (an automatic trip). */
  override?: BreakerOverride;
  /** stateChange to OPEN only: when the breaker lets a trial call through (ISO 8601), which other replicas keep too. */
  openUntil?: string;
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

/** The sliders' defaults, as the API stores them. */
export const DEFAULT_BREAKER_SETTINGS: BreakerCoreSettings = {
  failureThreshold: L.failureThreshold.default,
  timeout: L.timeoutSeconds.default * 1000,
  recoveryTime: L.recoveryTimeSeconds.default * 1000,
  successThreshold: L.successThreshold.default,
};

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
  createdAt: string;
  updatedAt: string;
}
