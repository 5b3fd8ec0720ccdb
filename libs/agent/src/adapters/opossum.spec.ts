import CircuitBreaker from 'opossum';
import type { AdapterTransition } from './adapter';
import { OpossumAdapter } from './opossum';
import { watchAdapter } from './test-kit';
import type { RollingWindow } from '../rolling-window';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(ok: boolean, ms = 0): Promise<string> {
  if (ms) await sleep(ms);
  if (!ok) throw new Error('boom');
  return 'ok';
}

describe('OpossumAdapter, on a real opossum breaker', () => {
  let circuit: CircuitBreaker<[boolean, number?], string>;
  let adapter: OpossumAdapter;
  let window: RollingWindow;
  let transitions: AdapterTransition[];

  const make = (options: CircuitBreaker.Options = {}) => {
    circuit = new CircuitBreaker(call, {
      name: 'payments',
      errorThresholdPercentage: 50,
      resetTimeout: 60_000,
      timeout: 1000,
      volumeThreshold: 2,
      ...options,
    });
    adapter = new OpossumAdapter(circuit);
    ({ window, transitions } = watchAdapter(adapter));
  };
  const fire = (ok: boolean, ms?: number) => circuit.fire(ok, ms).catch((error: Error) => error);

  afterEach(() => circuit.shutdown());

  it('counts the calls fired through the breaker by outcome, a timeout once, with their latencies', async () => {
    make({ errorThresholdPercentage: 90, timeout: 20 });
    await fire(true);
    await fire(true, 30);
    await fire(false);
    const timedOut = await fire(true, 200);
    expect(timedOut).toMatchObject({ code: 'ETIMEDOUT' });
    const drained = window.drain();
    expect(drained).toMatchObject({ successes: 1, failures: 1, timeouts: 2, rejections: 0 });
    expect(drained.latencyHistogram.counts.reduce((a, b) => a + b)).toBe(4);
    expect(drained.longestCallMs).toBeGreaterThanOrEqual(19);
    expect(adapter.name).toBe('payments');
    expect(adapter.settings()).toMatchObject({ errorThresholdPercentage: 90, timeout: 20, resetTimeout: 60_000, volumeThreshold: 2 });
  });

  it('sees the breaker open by failures as a transition to OPEN with its time, and counts the rejections', async () => {
    make();
    const before = Date.now();
    await fire(false);
    await fire(false);
    expect(adapter.state()).toBe('OPEN');
    expect(transitions).toEqual([{ from: 'CLOSED', to: 'OPEN', at: expect.any(Number), reason: 'error rate above 50%' }]);
    expect(transitions[0]!.at).toBeGreaterThanOrEqual(before);
    expect(transitions[0]!.at).toBeLessThanOrEqual(Date.now());
    expect(await fire(true)).toMatchObject({ code: 'EOPENBREAKER' });
    expect(window.drain()).toMatchObject({ failures: 2, rejections: 1 });
  });

  it('force open makes the breaker refuse the next call, and holds it open past its reset timeout; reset closes it', async () => {
    make({ resetTimeout: 20 });
    adapter.forceOpen();
    expect(adapter.override).toBe('forced-open');
    expect(await fire(true)).toMatchObject({ code: 'EOPENBREAKER' });
    await sleep(60);
    expect(circuit.opened).toBe(true);
    expect(await fire(true)).toMatchObject({ code: 'EOPENBREAKER' });
    adapter.reset();
    expect(await fire(true)).toBe('ok');
    expect(adapter.state()).toBe('CLOSED');
    expect(adapter.override).toBe('none');
    expect(transitions.map((t) => [t.to, t.reason])).toEqual([
      ['OPEN', 'forced open'],
      ['CLOSED', 'reset'],
    ]);
    expect(window.drain()).toMatchObject({ successes: 1, rejections: 2 });
  });

  it('force closed lets every call through however many fail; disable runs them unguarded and uncounted', async () => {
    make();
    adapter.forceClosed();
    for (let i = 0; i < 5; i++) expect(await fire(false)).toBeInstanceOf(Error);
    expect(await fire(true)).toBe('ok');
    expect(adapter.state()).toBe('CLOSED');
    expect(window.drain()).toMatchObject({ successes: 1, failures: 5, rejections: 0 });
    adapter.disable();
    await fire(false);
    await fire(false);
    expect(await fire(true)).toBe('ok');
    expect(circuit.enabled).toBe(false);
    expect(window.drain()).toMatchObject({ successes: 0, failures: 0 });
    expect(transitions).toEqual([]);
  });

  it('takes a lower error threshold at run time, so the breaker opens sooner; reports fixed options unsupported', async () => {
    make({ errorThresholdPercentage: 90, volumeThreshold: 0 });
    await fire(true);
    await fire(false); // 50% of calls failed: below 90
    expect(circuit.closed).toBe(true);
    const result = adapter.applySettings({ errorThresholdPercentage: 40, volumeThreshold: 1, rollingCountTimeout: 1000 });
    expect(result).toEqual({
      applied: ['errorThresholdPercentage'],
      unsupported: ['volumeThreshold', 'rollingCountTimeout'],
      rebuilt: false,
    });
    await fire(false); // 67%: above 40
    expect(circuit.opened).toBe(true);
    expect(adapter.settings()).toMatchObject({ errorThresholdPercentage: 40, volumeThreshold: 0 });
    expect(() => adapter.applySettings({ timeout: 'soon' })).toThrow(RangeError);
  });
});
