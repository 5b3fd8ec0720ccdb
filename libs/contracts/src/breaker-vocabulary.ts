// No schema library here: the screens import these words, and a module with schemas would bring one along.
import type { BreakerCoreSettings } from './breakers';

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

/** The sliders' defaults, as the API stores them. */
export const DEFAULT_BREAKER_SETTINGS: BreakerCoreSettings = {
  failureThreshold: BREAKER_SETTING_LIMITS.failureThreshold.default,
  timeout: BREAKER_SETTING_LIMITS.timeoutSeconds.default * 1000,
  recoveryTime: BREAKER_SETTING_LIMITS.recoveryTimeSeconds.default * 1000,
  successThreshold: BREAKER_SETTING_LIMITS.successThreshold.default,
};
