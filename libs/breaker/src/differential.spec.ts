import { CircuitState, circuitBreaker, ConsecutiveBreaker, handleAll, isBrokenCircuitError } from 'cockatiel';
import fc from 'fast-check';
import { CircuitBreaker } from './circuit-breaker';
import { isBreakerRejection } from './rejection';
import { systemClock } from './types';

/**
 * `simple` against cockatiel's ConsecutiveBreaker + halfOpenAfter as an oracle, where their semantics coincide:
 * one call at a time, one successful trial closes (successThreshold 1), failures never expire (recoveryTime ∞).
 * For every call both must agree on whether it ran, and on the state it leaves behind.
 */
describe('simple agrees with cockatiel', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_700_000_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('on random call sequences', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 2, max: 5_000 }).chain((timeout) =>
          fc.tuple(
            fc.constant(timeout),
            // Waits that land on the open period's edges as well as anywhere.
            fc.array(
              fc.record({
                wait: fc.oneof(fc.integer({ min: 0, max: 2 * timeout }), fc.constantFrom(0, 1, timeout - 1, timeout, timeout + 1)),
                ok: fc.boolean(),
              }),
              { maxLength: 80 },
            ),
          ),
        ),
        async (threshold, [timeout, calls]) => {
          const oracle = circuitBreaker(handleAll, { halfOpenAfter: timeout, breaker: new ConsecutiveBreaker(threshold) });
          const ours = new CircuitBreaker(
            { type: 'simple', failureThreshold: threshold, timeout, recoveryTime: Number.POSITIVE_INFINITY, successThreshold: 1 },
            systemClock,
          );
          for (const { wait, ok } of calls) {
            jest.advanceTimersByTime(wait);
            const call = () => (ok ? Promise.resolve('ok') : Promise.reject(new Error('down')));
            const oracleRan = await oracle.execute(call).then(
              () => true,
              (error: unknown) => !isBrokenCircuitError(error),
            );
            const oursRan = await ours.execute(call).then(
              () => true,
              (error: unknown) => !isBreakerRejection(error),
            );
            expect(oursRan).toBe(oracleRan);
            expect(ours.state).toBe(oracle.state === CircuitState.Open ? 'OPEN' : 'CLOSED');
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
