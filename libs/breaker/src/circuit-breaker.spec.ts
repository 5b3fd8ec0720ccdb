import type { BreakerSettings, BreakerStateName } from '@cbh/contracts';
import { CircuitBreaker } from './circuit-breaker';
import { BreakerRejectedError, isBreakerRejection, REJECTION_MESSAGES } from './rejection';
import type { Admission } from './types';

class ManualClock {
  constructor(public time = 1_000_000) {}
  now = () => this.time;
  advance(ms: number) {
    this.time += ms;
  }
}

const SIMPLE: BreakerSettings = { type: 'simple', failureThreshold: 3, timeout: 30_000, recoveryTime: 60_000, successThreshold: 2 };

/** One step of a scripted sequence: wait, then make a call with an outcome (or, without a call, tick as a scheduler would). */
type Step = { wait?: number; call?: 'ok' | 'fail' | 'slow'; expect: BreakerStateName; admission?: Admission };

function replay(settings: BreakerSettings, steps: Step[]) {
  const clock = new ManualClock();
  const breaker = new CircuitBreaker(settings, clock);
  const transitions: string[] = [];
  breaker.onTransition((t) => transitions.push(`${t.from}->${t.to}`));
  steps.forEach((step, index) => {
    clock.advance(step.wait ?? 0);
    if (step.call) {
      const admission = breaker.admit();
      if (step.admission) expect({ index, admission }).toEqual({ index, admission: step.admission });
      if (admission === 'permitted') breaker.record(step.call === 'ok', step.call === 'slow' ? 5_000 : 10);
    } else {
      breaker.tick();
    }
    expect({ index, state: breaker.state }).toEqual({ index, state: step.expect });
  });
  return { breaker, transitions, clock };
}

describe('simple', () => {
  it.each<[string, Step[], string[]]>([
    [
      'opens after failureThreshold consecutive failures, rejects fast, half-opens after timeout, closes after successThreshold trials',
      [
        { call: 'fail', expect: 'CLOSED' },
        { call: 'fail', expect: 'CLOSED' },
        { call: 'fail', expect: 'OPEN' },
        { call: 'ok', expect: 'OPEN', admission: 'short-circuited' },
        { wait: 29_999, call: 'ok', expect: 'OPEN', admission: 'short-circuited' },
        { wait: 1, expect: 'HALF_OPEN' },
        { call: 'ok', expect: 'HALF_OPEN', admission: 'permitted' },
        { call: 'ok', expect: 'CLOSED', admission: 'permitted' },
      ],
      ['CLOSED->OPEN', 'OPEN->HALF_OPEN', 'HALF_OPEN->CLOSED'],
    ],
    [
      'a success resets the consecutive count',
      [
        { call: 'fail', expect: 'CLOSED' },
        { call: 'fail', expect: 'CLOSED' },
        { call: 'ok', expect: 'CLOSED' },
        { call: 'fail', expect: 'CLOSED' },
        { call: 'fail', expect: 'CLOSED' },
        { call: 'fail', expect: 'OPEN' },
      ],
      ['CLOSED->OPEN'],
    ],
    [
      'failures older than recoveryTime are forgotten',
      [
        { call: 'fail', expect: 'CLOSED' },
        { call: 'fail', expect: 'CLOSED' },
        { wait: 60_001, call: 'fail', expect: 'CLOSED' },
        { call: 'fail', expect: 'CLOSED' },
        { call: 'fail', expect: 'OPEN' },
      ],
      ['CLOSED->OPEN'],
    ],
    [
      'any failed trial re-opens for another timeout',
      [
        { call: 'fail', expect: 'CLOSED' },
        { call: 'fail', expect: 'CLOSED' },
        { call: 'fail', expect: 'OPEN' },
        { wait: 30_000, call: 'ok', expect: 'HALF_OPEN' },
        { call: 'fail', expect: 'OPEN' },
        { wait: 29_000, call: 'ok', expect: 'OPEN', admission: 'short-circuited' },
        { wait: 1_000, expect: 'HALF_OPEN' },
      ],
      ['CLOSED->OPEN', 'OPEN->HALF_OPEN', 'HALF_OPEN->OPEN', 'OPEN->HALF_OPEN'],
    ],
  ])('%s', (_name, steps, transitions) => {
    expect(replay(SIMPLE, steps).transitions).toEqual(transitions);
  });

  it('lets only successThreshold trial calls in flight while half-open', () => {
    const clock = new ManualClock();
    const breaker = new CircuitBreaker(SIMPLE, clock);
    for (let i = 0; i < 3; i++) breaker.record(false, breaker.admit() === 'permitted' ? 1 : 0);
    clock.advance(30_000);
    expect([breaker.admit(), breaker.admit(), breaker.admit()]).toEqual(['permitted', 'permitted', 'short-circuited']);
  });

  it('sets the next attempt to now plus the timeout when it opens', () => {
    const { breaker, clock } = replay(SIMPLE, [
      { call: 'fail', expect: 'CLOSED' },
      { call: 'fail', expect: 'CLOSED' },
      { call: 'fail', expect: 'OPEN' },
    ]);
    expect(breaker.nextAttemptAt).toBe(clock.time + 30_000);
  });
});

describe('manual control', () => {
  it('forces open, forces closed, disables and resets, with an event for each change of state', () => {
    const clock = new ManualClock();
    const breaker = new CircuitBreaker(SIMPLE, clock);
    const events: string[] = [];
    breaker.onTransition((t) => events.push(`${t.from}->${t.to} (${t.reason})`));

    breaker.forceOpen();
    expect([breaker.state, breaker.override, breaker.admit()]).toEqual(['OPEN', 'forced-open', 'short-circuited']);
    breaker.forceClosed();
    for (let i = 0; i < 10; i++) {
      expect(breaker.admit()).toBe('permitted');
      breaker.record(false);
    }
    expect(breaker.state).toBe('CLOSED');
    breaker.disable();
    expect([breaker.state, breaker.override]).toEqual(['CLOSED', 'disabled']);
    breaker.reset();
    expect(breaker.override).toBe('none');
    expect(events).toEqual(['CLOSED->OPEN (forced open)', 'OPEN->CLOSED (forced closed)']);
  });

  it('names each move in words an operator reads in the journal, and remembers when it last moved', () => {
    const clock = new ManualClock();
    const breaker = new CircuitBreaker(SIMPLE, clock);
    const reasons: string[] = [];
    breaker.onTransition((t) => reasons.push(`${t.to}: ${t.reason}`));
    expect(breaker.lastTransitionAt).toBeNull();
    for (let i = 0; i < 3; i++) breaker.record(false, breaker.admit() === 'permitted' ? 1 : 0);
    expect(breaker.lastTransitionAt).toBe(clock.time);
    clock.advance(30_000);
    breaker.tick();
    breaker.forceOpen('forced open by ops@example.com');
    breaker.reset('reset by ops@example.com');
    expect(reasons).toEqual([
      'OPEN: 3 consecutive failures',
      'HALF_OPEN: open period of 30 s elapsed',
      'OPEN: forced open by ops@example.com',
      'CLOSED: reset by ops@example.com',
    ]);
    expect(breaker.lastTransitionAt).toBe(clock.time);
  });

  it('closes with a peer while testing recovery or open only because it followed one, never when open of its own', () => {
    const clock = new ManualClock();
    const breaker = new CircuitBreaker(SIMPLE, clock);
    breaker.closeFromPeer();
    expect(breaker.lastTransitionAt).toBeNull();
    // open of its own: its own open period decides
    for (let i = 0; i < 3; i++) breaker.record(false, breaker.admit() === 'permitted' ? 1 : 0);
    breaker.closeFromPeer();
    expect([breaker.state, breaker.followsPeer]).toEqual(['OPEN', false]);
    clock.advance(30_000);
    expect(breaker.tick()).toBe('HALF_OPEN');
    breaker.closeFromPeer();
    expect(breaker.state).toBe('CLOSED');
    // open because a peer opened: the peer's recovery closes it too
    breaker.openUntilFromPeer(clock.time + 60_000);
    expect([breaker.state, breaker.followsPeer]).toEqual(['OPEN', true]);
    breaker.closeFromPeer();
    expect([breaker.state, breaker.followsPeer]).toEqual(['CLOSED', false]);
  });

  it('reset closes an open breaker and forgets its failures', () => {
    const { breaker, transitions } = replay(SIMPLE, [
      { call: 'fail', expect: 'CLOSED' },
      { call: 'fail', expect: 'CLOSED' },
      { call: 'fail', expect: 'OPEN' },
    ]);
    breaker.reset();
    expect(breaker.state).toBe('CLOSED');
    expect(transitions).toEqual(['CLOSED->OPEN', 'OPEN->CLOSED']);
    breaker.record(false, breaker.admit() === 'permitted' ? 1 : 0);
    expect(breaker.state).toBe('CLOSED');
  });
});

describe('adaptive', () => {
  const ADAPTIVE: BreakerSettings = {
    type: 'adaptive',
    failureThreshold: 5,
    timeout: 30_000,
    recoveryTime: 10_000,
    successThreshold: 1,
    minimumCalls: 10,
    slowCallDuration: 1000,
  };
  const calls = (n: number, call: Step['call'], expectState: BreakerStateName, wait = 0): Step[] =>
    Array.from({ length: n }, (_, i) => ({ call, expect: expectState, wait: i === 0 ? wait : 0 }));

  it('opens when the failure rate in the window reaches threshold × 10 % with enough calls; slow calls are failures', () => {
    const { transitions } = replay(ADAPTIVE, [
      ...calls(5, 'ok', 'CLOSED'),
      ...calls(4, 'slow', 'CLOSED'),
      { call: 'fail', expect: 'OPEN' }, // 5 of 10 = 50 %
    ]);
    expect(transitions).toEqual(['CLOSED->OPEN']);
  });

  it('does not open below the minimum number of calls', () => {
    replay(ADAPTIVE, calls(9, 'fail', 'CLOSED'));
  });

  it('forgets calls that left the sliding window', () => {
    replay(ADAPTIVE, [...calls(5, 'fail', 'CLOSED'), ...calls(5, 'ok', 'CLOSED', 11_000), ...calls(4, 'fail', 'CLOSED')]);
  });

  it('opens for timeout/2 at first, backs off on a repeated trip and tightens its threshold, within the bounds', () => {
    const clock = new ManualClock();
    const breaker = new CircuitBreaker(ADAPTIVE, clock);
    const policy = breaker.policy as unknown as { threshold: number; openDuration(): number };
    const trip = () => {
      while (breaker.state === 'CLOSED') breaker.record(false, breaker.admit() === 'permitted' ? 10 : 0);
    };
    const recover = () => {
      clock.advance(breaker.nextAttemptAt! - clock.time);
      expect(breaker.tick()).toBe('HALF_OPEN');
      breaker.admit();
      breaker.record(true, 10);
      expect(breaker.state).toBe('CLOSED');
    };

    trip();
    expect(breaker.nextAttemptAt! - clock.time).toBe(15_000);
    recover(); // clean recovery: threshold relaxes to 6, open duration stays at its floor of 15 s
    expect(policy.threshold).toBe(6);
    trip(); // tripped again within one window of the recovery: back off
    expect(breaker.nextAttemptAt! - clock.time).toBe(30_000);
    expect(policy.threshold).toBe(5);
    for (let i = 0; i < 6; i++) {
      recover();
      trip();
    }
    expect(policy.threshold).toBeGreaterThanOrEqual(3);
    expect(policy.threshold).toBeLessThanOrEqual(8);
    expect(policy.openDuration()).toBeLessThanOrEqual(30_000);
    expect(policy.openDuration()).toBeGreaterThanOrEqual(15_000);
  });
});

describe('bulkhead', () => {
  const BULKHEAD: BreakerSettings = { ...SIMPLE, type: 'bulkhead', maxConcurrentCalls: 2, maxQueue: 1 };

  it('rejects calls beyond the concurrency limit, counted apart from short-circuits', () => {
    const breaker = new CircuitBreaker({ ...BULKHEAD, maxQueue: 0 }, new ManualClock());
    expect([breaker.admit(), breaker.admit(), breaker.admit()]).toEqual(['permitted', 'permitted', 'bulkhead-rejected']);
    breaker.record(true);
    expect(breaker.admit()).toBe('permitted');
  });

  it('queues up to maxQueue calls for a free slot, rejects the rest', async () => {
    const breaker = new CircuitBreaker(BULKHEAD, new ManualClock());
    const gates: (() => void)[] = [];
    const slow = () => breaker.execute(() => new Promise<string>((resolve) => gates.push(() => resolve('done'))));
    const running = [slow(), slow()];
    const queued = slow();
    await expect(slow()).rejects.toMatchObject({ admission: 'bulkhead-rejected', message: 'Bulkhead is full' });
    expect(breaker.callsInFlight).toBe(2);
    gates.shift()!();
    await running[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(gates).toHaveLength(2);
    gates.forEach((open) => open());
    await expect(Promise.all([running[1], queued])).resolves.toEqual(['done', 'done']);
    expect(breaker.callsInFlight).toBe(0);
  });

  it('still opens on consecutive failures like simple', async () => {
    const breaker = new CircuitBreaker(BULKHEAD, new ManualClock());
    for (let i = 0; i < 3; i++) await breaker.execute(() => Promise.reject(new Error('down'))).catch(() => undefined);
    const error = await breaker.execute(() => Promise.resolve(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BreakerRejectedError);
    expect((error as Error).message).toBe('Circuit breaker is OPEN');
  });
});

describe('reading a breaker', () => {
  it('changes nothing: an open breaker past its timeout reads OPEN and announces nothing until tick() or admit()', () => {
    const { breaker, transitions, clock } = replay(SIMPLE, [
      { call: 'fail', expect: 'CLOSED' },
      { call: 'fail', expect: 'CLOSED' },
      { call: 'fail', expect: 'OPEN' },
    ]);
    clock.advance(30_000);
    for (let i = 0; i < 3; i++) expect([breaker.state, breaker.nextAttemptAt]).toEqual(['OPEN', clock.time]);
    expect(transitions).toEqual(['CLOSED->OPEN']);
    expect(breaker.tick()).toBe('HALF_OPEN');
    expect(transitions).toEqual(['CLOSED->OPEN', 'OPEN->HALF_OPEN']);
  });

  it('admit() applies the timeout itself', () => {
    const { breaker, transitions, clock } = replay(SIMPLE, [
      { call: 'fail', expect: 'CLOSED' },
      { call: 'fail', expect: 'CLOSED' },
      { call: 'fail', expect: 'OPEN' },
    ]);
    clock.advance(30_000);
    expect(breaker.admit()).toBe('permitted');
    expect([breaker.state, transitions]).toEqual(['HALF_OPEN', ['CLOSED->OPEN', 'OPEN->HALF_OPEN']]);
  });
});

describe('rejections', () => {
  it('are recognised by isBreakerRejection, and only they, with one message per reason', async () => {
    const open = new CircuitBreaker(SIMPLE, new ManualClock());
    open.forceOpen();
    const refused = await open.execute(() => Promise.resolve(1)).catch((e: unknown) => e);
    const failed = await new CircuitBreaker(SIMPLE, new ManualClock())
      .execute(() => Promise.reject(new Error('Circuit breaker is OPEN')))
      .catch((e: unknown) => e);
    expect([isBreakerRejection(refused), isBreakerRejection(failed), isBreakerRejection('Circuit breaker is OPEN')]).toEqual([
      true,
      false,
      false,
    ]);
    expect(REJECTION_MESSAGES).toEqual({ 'short-circuited': 'Circuit breaker is OPEN', 'bulkhead-rejected': 'Bulkhead is full' });
    // a rejection thrown by another copy of the library (another remote's bundle) is recognised too
    const foreign = Object.assign(new Error(REJECTION_MESSAGES['bulkhead-rejected']), {
      name: 'BreakerRejectedError',
      admission: 'bulkhead-rejected',
    });
    expect(isBreakerRejection(foreign)).toBe(true);
  });
});
