import { RollingMetrics } from '@cbh/breaker';
import { type BreakerFigures, PART_BYTES, PeerFigures, toParts } from './replica-figures';

const NOW = 1_700_000_000_000;

/** A breaker with calls of many different latencies, so its histogram has many bins. */
function busyBreaker(configId: number): BreakerFigures {
  const window = new RollingMetrics();
  for (let ms = 1; ms < 5000; ms = Math.ceil(ms * 1.09)) window.record(ms % 7 ? 'success' : 'failure', ms, NOW);
  return {
    configId,
    state: configId % 3 === 0 ? 'OPEN' : 'CLOSED',
    override: 'none',
    lastTransitionAt: NOW - configId,
    window: window.snapshot(NOW),
    totals: { success: 1000 + configId, failure: 7, timeout: 0, 'short-circuited': 3, 'bulkhead-rejected': 0 },
  };
}

describe('replica figures', () => {
  it('splits 200 busy breakers into parts that each fit one NOTIFY, and a peer reassembles them exactly', () => {
    const figures = Array.from({ length: 200 }, (_, i) => busyBreaker(i + 1));
    const parts = toParts(7, figures);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      // the envelope adds the origin (a uuid) and a few keys
      expect(Buffer.byteLength(JSON.stringify({ origin: 'x'.repeat(36), figures: part }))).toBeLessThan(PART_BYTES + 200);
      expect(part.parts).toBe(parts.length);
    }
    const peers = new PeerFigures();
    for (const part of parts) peers.receive('replica-b', JSON.parse(JSON.stringify(part)), NOW);
    const [peer] = peers.live(NOW, 3000);
    expect(peer!.id).toBe('replica-b');
    expect([...peer!.figures.values()]).toEqual(figures);
  });

  it('takes a round only once its last part arrives, and ignores a round whose start it missed', () => {
    const peers = new PeerFigures();
    const parts = toParts(1, [busyBreaker(1), busyBreaker(2)], 400);
    expect(parts).toHaveLength(2);
    peers.receive('b', parts[1], NOW); // joined mid-round
    expect(peers.live(NOW, 3000)).toEqual([]);
    peers.receive('b', parts[0], NOW);
    expect(peers.live(NOW, 3000)).toEqual([]);
    peers.receive('b', parts[1], NOW);
    expect([...peers.live(NOW, 3000)[0]!.figures.keys()]).toEqual([1, 2]);
  });

  it('drops a peer that stopped reporting, and counts an idle one that still does', () => {
    const peers = new PeerFigures();
    for (const part of toParts(1, [], PART_BYTES)) peers.receive('idle', part, NOW);
    for (const part of toParts(1, [busyBreaker(1)], PART_BYTES)) peers.receive('silent', part, NOW - 4000);
    expect(peers.live(NOW, 3000).map((peer) => peer.id)).toEqual(['idle']);
  });

  it('skips rows that are not figures rather than breaking the sums', () => {
    const peers = new PeerFigures();
    const [part] = toParts(1, [busyBreaker(1)]);
    const bad = { ...part!, rows: [...part!.rows, ['x'], [2, 9, 0, null, [1], 0, 0, [0, 0, 0, 0, 0], []], 'row'] };
    expect(peers.receive('b', bad, NOW)).toBe(true);
    expect(peers.receive('b', { nonsense: true }, NOW)).toBe(false);
    expect([...peers.live(NOW, 3000)[0]!.figures.keys()]).toEqual([1]);
  });
});
