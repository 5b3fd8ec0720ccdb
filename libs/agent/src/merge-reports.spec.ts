import { AGENT_PROTOCOL_LIMITS, type AgentBreakerReport, type AgentReport, type AgentTransition, type AgentWindow } from '@cbh/contracts';
import { mergeReports } from './merge-reports';

const window = (figures: Partial<AgentWindow> = {}): AgentWindow => ({
  successes: 0,
  failures: 0,
  timeouts: 0,
  rejections: 0,
  latencyHistogram: { boundsMs: [10, 100], counts: [0, 0, 0] },
  longestCallMs: 0,
  ...figures,
});

const transition = (second: number, reason = `at ${second}`): AgentTransition => ({
  from: 'CLOSED',
  to: 'OPEN',
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
  reason,
});

const breaker = (name: string, figures: Partial<AgentBreakerReport> = {}): AgentBreakerReport => ({
  name,
  library: 'opossum',
  type: 'error-percentage',
  settings: { timeout: 1000 },
  state: 'CLOSED',
  override: 'none',
  window: window(),
  transitions: [],
  ...figures,
});

const report = (sentAt: string, breakers: AgentBreakerReport[]): AgentReport => ({
  version: 1,
  service: 'checkout',
  instance: 'checkout-1',
  sentAt,
  breakers,
});

describe('mergeReports', () => {
  it("adds the periods' counts and histograms, keeps the longest call, and the newer report's state and settings", () => {
    const older = report('2026-01-01T00:00:01.000Z', [
      breaker('payments', {
        window: window({
          successes: 3,
          failures: 1,
          timeouts: 2,
          rejections: 4,
          latencyHistogram: { boundsMs: [10, 100], counts: [1, 2, 3] },
          longestCallMs: 900,
        }),
        transitions: [transition(1)],
      }),
    ]);
    const newer = report('2026-01-01T00:00:02.000Z', [
      breaker('payments', {
        state: 'OPEN',
        override: 'forced-open',
        settings: { timeout: 2000 },
        window: window({ successes: 1, rejections: 5, latencyHistogram: { boundsMs: [10, 100], counts: [1, 0, 0] }, longestCallMs: 7 }),
        transitions: [transition(2)],
      }),
    ]);
    const before = JSON.stringify([older, newer]);
    expect(mergeReports(older, newer)).toEqual(
      report('2026-01-01T00:00:02.000Z', [
        breaker('payments', {
          state: 'OPEN',
          override: 'forced-open',
          settings: { timeout: 2000 },
          window: window({
            successes: 4,
            failures: 1,
            timeouts: 2,
            rejections: 9,
            latencyHistogram: { boundsMs: [10, 100], counts: [2, 2, 3] },
            longestCallMs: 900,
          }),
          transitions: [transition(1), transition(2)],
        }),
      ]),
    );
    expect(JSON.stringify([older, newer])).toBe(before);
  });

  it('adds slow calls when either period has them, and puts latencies of other bounds in the bins of their upper bound', () => {
    const older = report('2026-01-01T00:00:01.000Z', [
      breaker('ledger', { window: window({ slowCalls: 2, latencyHistogram: { boundsMs: [5, 50, 500], counts: [1, 2, 3, 4] } }) }),
    ]);
    const newer = report('2026-01-01T00:00:02.000Z', [
      breaker('ledger', { window: window({ latencyHistogram: { boundsMs: [10, 100], counts: [1, 1, 1] } }) }),
    ]);
    expect(mergeReports(older, newer).breakers[0]!.window).toMatchObject({
      slowCalls: 2,
      // ≤ 5 → ≤ 10; ≤ 50 → ≤ 100; ≤ 500 and above → the overflow bin
      latencyHistogram: { boundsMs: [10, 100], counts: [2, 3, 8] },
    });
  });

  it('keeps the newest transitions of both periods up to the limit of a report, across breakers', () => {
    const limit = AGENT_PROTOCOL_LIMITS.transitionsPerReport;
    const older = report('2026-01-01T00:00:01.000Z', [
      breaker('a', { transitions: Array.from({ length: 60 }, (_, i) => transition(i, `a${i}`)) }),
      breaker('b', { transitions: [transition(59, 'b-old')] }),
    ]);
    const newer = report('2026-01-01T00:01:00.000Z', [
      breaker('a', { transitions: Array.from({ length: 20 }, (_, i) => transition(60 + i, `a${60 + i}`)) }),
      breaker('b', { transitions: Array.from({ length: 30 }, (_, i) => transition(60 + i, `b${60 + i}`)) }),
    ]);
    const [a, b] = mergeReports(older, newer).breakers;
    expect(a!.transitions.length + b!.transitions.length).toBe(limit);
    // 111 in all: the 11 oldest of breaker a give way
    expect(a!.transitions[0]!.reason).toBe('a11');
    expect(a!.transitions.at(-1)!.reason).toBe('a79');
    expect(b!.transitions.map((t) => t.reason)).toEqual(['b-old', ...Array.from({ length: 30 }, (_, i) => `b${60 + i}`)]);
  });

  it('leaves out a breaker unregistered since the older report, and takes a new one as it is', () => {
    const older = report('2026-01-01T00:00:01.000Z', [breaker('gone', { window: window({ successes: 9 }) })]);
    const newer = report('2026-01-01T00:00:02.000Z', [breaker('new', { window: window({ successes: 1 }) })]);
    expect(mergeReports(older, newer).breakers).toEqual([breaker('new', { window: window({ successes: 1 }) })]);
  });
});

it('covers the time of both periods', () => {
  const older = { ...report('2026-01-01T00:00:01.000Z', [breaker('payments')]), periodMs: 1000 };
  const newer = { ...report('2026-01-01T00:00:31.000Z', [breaker('payments')]), periodMs: 30_000 };
  expect(mergeReports(older, newer).periodMs).toBe(31_000);
  expect(mergeReports(report('2026-01-01T00:00:01.000Z', []), newer).periodMs).toBe(30_000);
});
