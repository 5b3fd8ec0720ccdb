// cockatiel 3.2.1's isIsolatedCircuitError() and isTaskCancelledError() test the wrong property: instanceof it is
import { IsolatedCircuitError, isBrokenCircuitError } from 'cockatiel';
import type { AdapterTransition } from './adapter';
import { CockatielAdapter, type CockatielSettings } from './cockatiel';
import { callThrough, watchAdapter } from './test-kit';
import type { RollingWindow } from '../rolling-window';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('CockatielAdapter, on a real cockatiel circuit breaker', () => {
  let adapter: CockatielAdapter;
  let window: RollingWindow;
  let transitions: AdapterTransition[];

  const make = (settings: Partial<CockatielSettings> = {}) => {
    adapter = new CockatielAdapter('inventory', {
      type: 'consecutive',
      halfOpenAfter: 60_000,
      threshold: 3,
      ...settings,
    } as CockatielSettings);
    ({ window, transitions } = watchAdapter(adapter));
  };
  const run = (ok: boolean, ms = 0) => callThrough(adapter, ok, () => ms && sleep(ms));

  it('counts the calls through the breaker by outcome, with their latencies and the longest', async () => {
    make();
    await run(true);
    await run(true, 30);
    await run(false);
    const drained = window.drain();
    expect(drained).toMatchObject({ successes: 2, failures: 1, timeouts: 0, rejections: 0 });
    expect(drained.latencyHistogram.counts.reduce((a, b) => a + b)).toBe(3);
    expect(drained.longestCallMs).toBeGreaterThanOrEqual(29);
    expect(adapter.type).toBe('consecutive');
    expect(adapter.settings()).toEqual({ halfOpenAfter: 60_000, threshold: 3 });
  });

  it('sees the breaker open by consecutive failures as a transition with its time, counts rejections, and its recovery', async () => {
    make({ halfOpenAfter: 30 });
    const before = Date.now();
    for (let i = 0; i < 3; i++) await run(false);
    expect(adapter.state()).toBe('OPEN');
    expect(transitions).toEqual([{ from: 'CLOSED', to: 'OPEN', at: expect.any(Number), reason: '3 consecutive failures' }]);
    expect(transitions[0]!.at).toBeGreaterThanOrEqual(before);
    expect(isBrokenCircuitError(await run(true))).toBe(true);
    expect(window.drain()).toMatchObject({ failures: 3, rejections: 1 });
    await sleep(50);
    expect(await run(true)).toBe('ok');
    expect(transitions.map((t) => t.to)).toEqual(['OPEN', 'HALF_OPEN', 'CLOSED']);
  });

  it('force open isolates the breaker so the next call is refused; reset closes it, even after a trip', async () => {
    make();
    adapter.forceOpen();
    expect(adapter.state()).toBe('OPEN');
    expect(await run(true)).toBeInstanceOf(IsolatedCircuitError);
    adapter.reset();
    expect(await run(true)).toBe('ok');
    for (let i = 0; i < 3; i++) await run(false);
    expect(isBrokenCircuitError(await run(true))).toBe(true);
    adapter.reset();
    expect(adapter.state()).toBe('CLOSED');
    expect(await run(true)).toBe('ok');
    expect(transitions.map((t) => [t.to, t.reason])).toEqual([
      ['OPEN', 'forced open'],
      ['CLOSED', 'reset'],
      ['OPEN', '3 consecutive failures'],
      ['CLOSED', 'reset'],
    ]);
  });

  it('force closed lets every failure through and counts it; disable runs calls uncounted', async () => {
    make();
    adapter.forceClosed();
    for (let i = 0; i < 5; i++) await run(false);
    expect(await run(true)).toBe('ok');
    expect(adapter.policy.state).toBe(0); // cockatiel's own breaker never saw them
    expect(window.drain()).toMatchObject({ successes: 1, failures: 5 });
    adapter.disable();
    await run(false);
    expect(window.drain()).toMatchObject({ successes: 0, failures: 0 });
    expect(adapter.override).toBe('disabled');
  });

  it('takes a lower threshold by building a new policy, so the breaker opens sooner; keeps a forced open', async () => {
    make();
    await run(false);
    const first = adapter.policy;
    expect(adapter.applySettings({ threshold: 1, type: 'sampling' })).toEqual({
      applied: ['threshold'],
      unsupported: ['type'],
      rebuilt: true,
    });
    expect(adapter.policy).not.toBe(first);
    await run(false);
    expect(adapter.state()).toBe('OPEN');
    expect(adapter.settings()).toEqual({ halfOpenAfter: 60_000, threshold: 1 });
    adapter.reset();
    adapter.forceOpen();
    adapter.applySettings({ halfOpenAfter: 10 });
    await sleep(20);
    expect(await run(true)).toBeInstanceOf(IsolatedCircuitError);
    expect(adapter.override).toBe('forced-open');
  });

  it('wraps a sampling breaker too', async () => {
    make({ type: 'sampling', threshold: 0.5, duration: 10_000, minimumRps: 0.1 } as Partial<CockatielSettings>);
    expect(adapter.type).toBe('sampling');
    expect(adapter.settings()).toEqual({ halfOpenAfter: 60_000, threshold: 0.5, duration: 10_000, minimumRps: 0.1 });
    for (let i = 0; i < 5; i++) await run(false);
    expect(adapter.state()).toBe('OPEN');
    expect(transitions[0]?.reason).toBe('failure rate of 50% over 10000 ms');
  });
});
