import { isBreakerRejection } from '@cbh/breaker';
import type { BreakerSettings } from '@cbh/contracts';
import type { AdapterTransition } from './adapter';
import { CbhAdapter } from './cbh';
import { callThrough, watchAdapter } from './test-kit';
import type { RollingWindow } from '../rolling-window';

const SIMPLE: BreakerSettings = { type: 'simple', failureThreshold: 3, timeout: 30_000, recoveryTime: 60_000, successThreshold: 1 };

describe('CbhAdapter, on a real @cbh/breaker CircuitBreaker', () => {
  let time: number;
  let adapter: CbhAdapter;
  let window: RollingWindow;
  let transitions: AdapterTransition[];

  const make = (settings: BreakerSettings = SIMPLE) => {
    time = 1_000_000;
    adapter = new CbhAdapter('ledger', settings, { now: () => time });
    ({ window, transitions } = watchAdapter(adapter));
  };
  /** A call that takes `ms` on the breaker's clock. */
  const run = (ok: boolean, ms = 0) => callThrough(adapter, ok, () => (time += ms));

  it('counts the calls by outcome, bins their durations and keeps the longest', async () => {
    make();
    await run(true, 5);
    await run(true, 40);
    await run(false, 2000);
    expect(window.drain()).toEqual({
      successes: 2,
      failures: 1,
      timeouts: 0,
      rejections: 0,
      latencyHistogram: { boundsMs: [10, 25, 50, 1000], counts: [1, 0, 1, 0, 1] },
      longestCallMs: 2000,
    });
    expect(adapter.type).toBe('simple');
    expect(adapter.settings()).toEqual(SIMPLE);
  });

  it('sees the breaker open by consecutive failures as a transition to OPEN at its time, then refuses calls', async () => {
    make();
    await run(false);
    await run(false);
    time = 1_000_500;
    await run(false);
    expect(transitions).toEqual([{ from: 'CLOSED', to: 'OPEN', at: 1_000_500, reason: '3 consecutive failures' }]);
    expect(isBreakerRejection(await run(true))).toBe(true);
    expect(window.drain()).toMatchObject({ failures: 3, rejections: 1 });
    time += 30_000;
    expect(adapter.state()).toBe('HALF_OPEN');
  });

  it('force open makes the breaker refuse the next call; reset closes it', async () => {
    make();
    adapter.forceOpen('forced open by the hub');
    expect(adapter.override).toBe('forced-open');
    expect(isBreakerRejection(await run(true))).toBe(true);
    adapter.reset();
    expect(await run(true)).toBe('ok');
    expect(adapter.state()).toBe('CLOSED');
    expect(transitions.map((t) => [t.to, t.reason])).toEqual([
      ['OPEN', 'forced open by the hub'],
      ['CLOSED', 'reset'],
    ]);
  });

  it('force closed counts failures without opening; disable counts nothing', async () => {
    make();
    adapter.forceClosed();
    for (let i = 0; i < 5; i++) await run(false);
    expect(adapter.state()).toBe('CLOSED');
    expect(window.drain()).toMatchObject({ failures: 5 });
    adapter.disable();
    await run(false);
    await run(true);
    expect(window.drain()).toMatchObject({ successes: 0, failures: 0 });
  });

  it('takes new settings by building a new breaker that keeps the override, so a lower threshold opens sooner', async () => {
    make();
    const first = adapter.breaker;
    expect(adapter.applySettings({ failureThreshold: 1, type: 'adaptive', colour: 'red' })).toEqual({
      applied: ['failureThreshold'],
      unsupported: ['type', 'colour'],
      rebuilt: true,
    });
    expect(adapter.breaker).not.toBe(first);
    await run(false);
    expect(adapter.state()).toBe('OPEN');
    expect(transitions.at(-1)).toMatchObject({ to: 'OPEN', reason: '1 consecutive failure' });
    adapter.forceOpen();
    adapter.applySettings({ timeout: 5000 });
    expect(adapter.override).toBe('forced-open');
    expect(isBreakerRejection(await run(true))).toBe(true);
    expect(() => adapter.applySettings({ timeout: 1.5 })).toThrow(RangeError);
  });

  it('counts slow calls of the adaptive type', async () => {
    make({ ...SIMPLE, type: 'adaptive', slowCallDuration: 100 });
    expect(adapter.slowCallMs).toBe(100);
    await run(true, 50);
    await run(true, 150);
    expect(window.drain()).toMatchObject({ successes: 2, slowCalls: 1 });
  });
});
