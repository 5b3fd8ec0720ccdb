// No schema library here: the screens import these words, and a module with schemas would bring one along.

/*
 * The breaker's vocabulary, defined once: the engine in libs/breaker, the API and the screens all import it
 * from here, because these words are also what travels over REST and /ws.
 */

export const BREAKER_TYPES = ['simple', 'adaptive', 'bulkhead'] as const;
export type BreakerTypeName = (typeof BREAKER_TYPES)[number];

/** CLOSED (normal), HALF_OPEN (testing recovery), OPEN (fail fast). */
export const BREAKER_STATES = ['CLOSED', 'HALF_OPEN', 'OPEN'] as const;
export type BreakerStateName = (typeof BREAKER_STATES)[number];

const CAUTION: Record<BreakerStateName, number> = { CLOSED: 0, HALF_OPEN: 1, OPEN: 2 };

/**
 * The more cautious of two states (the first of two as cautious): a breaker seen on several replicas or instances is
 * shown in the most cautious of their states, since any one refusing calls is what an operator must see.
 */
export const moreCautious = (a: BreakerStateName, b: BreakerStateName): BreakerStateName => (CAUTION[b] > CAUTION[a] ? b : a);

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

/**
 * The four settings every type has, in milliseconds where they are times: what the sliders edit and PATCH sends.
 * Written out here rather than inferred from breakers.ts's schema, so that this file needs neither that file nor a
 * schema library; the schema is checked against it.
 */
export type BreakerCoreSettings = {
  failureThreshold: number;
  timeout: number;
  recoveryTime: number;
  successThreshold: number;
};

/** The sliders' defaults, as the API stores them. */
export const DEFAULT_BREAKER_SETTINGS: BreakerCoreSettings = {
  failureThreshold: BREAKER_SETTING_LIMITS.failureThreshold.default,
  timeout: BREAKER_SETTING_LIMITS.timeoutSeconds.default * 1000,
  recoveryTime: BREAKER_SETTING_LIMITS.recoveryTimeSeconds.default * 1000,
  successThreshold: BREAKER_SETTING_LIMITS.successThreshold.default,
};

/**
 * Where a breaker runs: in the hub itself (`hub`, the engine the load tests go through), in a service whose agent
 * reports it (`agent`), or in a service whose Prometheus endpoint the hub scrapes (`scrape`, read-only: the hub
 * cannot push to it).
 */
export const BREAKER_SOURCES = ['hub', 'agent', 'scrape'] as const;
export type BreakerSource = (typeof BREAKER_SOURCES)[number];

/** Why a control of a scraped breaker is refused (409). */
export const readOnlyBreakerMessage = (name: string, service: string) =>
  `Circuit breaker ${name} is read-only: it is scraped from ${service}, and the hub cannot push to a scraped service`;

/** Why the hub's own test calls (load tests, demo services) cannot go through a breaker that runs in a service (409). */
export const outsideBreakerMessage = (name: string, service: string) =>
  `Circuit breaker ${name} runs in ${service}: the hub's load tests and services call through its own breakers only`;

/**
 * The hub's kind of breaker nearest to a library's, so that every breaker sorts and filters alike: opossum's and
 * resilience4j's are failure-rate breakers over a window with a minimum of calls (the hub's adaptive), cockatiel's
 * consecutive breaker counts failures in a row (simple), its sampling one a rate (adaptive).
 */
export function hubTypeOf(library: string, libraryType: string): BreakerTypeName {
  if (library === 'cbh' && (BREAKER_TYPES as readonly string[]).includes(libraryType)) return libraryType as BreakerTypeName;
  if (library === 'cockatiel' && libraryType === 'consecutive') return 'simple';
  return 'adaptive';
}

/**
 * A single bad instance: one whose error rate over the window is at least BAD_INSTANCE.points percentage points
 * above, and at least BAD_INSTANCE.factor times, the rate of the other live instances taken together, with at least
 * BAD_INSTANCE.minimumCalls calls of its own. Summed figures hide it; the breaker page marks it.
 */
export const BAD_INSTANCE = { points: 25, factor: 2, minimumCalls: 10 } as const;

export function isBadInstance(own: { errors: number; calls: number }, others: { errors: number; calls: number }): boolean {
  if (own.calls < BAD_INSTANCE.minimumCalls || others.calls === 0) return false;
  const rate = (100 * own.errors) / own.calls;
  const rest = (100 * others.errors) / others.calls;
  return rate - rest >= BAD_INSTANCE.points && rate >= BAD_INSTANCE.factor * rest;
}
