/**
 * The body of `POST /api/circuit-breakers` for a simple breaker: the demo's simple breaker's settings (SEED_DEMO's
 * Payment Gateway), `settings` over them. For a test that needs a breaker, not particular settings.
 */
export function simpleBreaker(name: string, settings: Record<string, number> = {}) {
  return { name, type: 'simple', failureThreshold: 5, timeout: 30_000, recoveryTime: 60_000, successThreshold: 3, ...settings };
}
