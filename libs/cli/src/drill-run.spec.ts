import type { DrillDetailView, DrillTimelineEntry } from '@cbh/contracts';
import { countdownText, startedLines, verdictLines, whyMissed } from './drill-run';

const payments = { id: 31, name: 'payments', service: 'checkout' };
const at = (second: number) => new Date(Date.UTC(2026, 0, 5, 12, 0, second)).toISOString();

/** A drill of one 10 s step on payments, expecting it OPEN within 2 s of the start, as GET /api/drills/{id} answers it. */
function drill(timeline: Omit<DrillTimelineEntry, 'at'>[], fields: Partial<DrillDetailView> = {}): DrillDetailView {
  return {
    id: 7,
    name: 'db-failover',
    state: 'finished',
    startedAt: at(0),
    endsAt: at(10),
    endedAt: at(10),
    startedBy: 'Ada Admin',
    stoppedBy: null,
    steps: [
      {
        index: 0,
        breaker: payments,
        fault: { kind: 'latency', rate: 0.25, latencyMs: 800 },
        instances: 50,
        durationSeconds: 10,
        startsAt: at(0),
        endsAt: at(10),
      },
    ],
    expectations: [{ breaker: payments, state: 'OPEN', withinSeconds: 2, after: 'start', result: 'missed', tookSeconds: null }],
    verdict: 'missed',
    timeline: timeline.map((entry, index) => ({ at: at(index), ...entry })),
    ...fields,
  };
}

const started = { kind: 'started', text: 'Drill "db-failover" started by Ada Admin' } as const;

describe('what cbh drill run prints', () => {
  it('prints the blast radius of each step, the expectations and the page', () => {
    expect(startedLines(drill([], { state: 'running', verdict: 'pending', endedAt: null }), 'https://hub.example.com/hub')).toEqual([
      'Drill 7 "db-failover" started, until 12:00:10Z',
      'Step 1 of 1, 12:00:00Z for 10 s: latency 800 ms on 25 % of calls of payments (checkout), 50 % of instances',
      "Expectation 1: payments (checkout) OPEN within 2 s of the drill's start",
      'https://hub.example.com/hub/drills/7',
    ]);
  });

  it('says why an expectation was missed: how far the breaker got, and whether its fault reached an instance', () => {
    const sent = { kind: 'fault_sent', text: 'Fault drill-7-0 sent to checkout/i-1', instance: 'checkout/i-1' } as const;
    const expectation = drill([]).expectations[0]!;
    expect(whyMissed(drill([started]), expectation)).toBe(
      'it never moved; no instance of checkout reported while its fault was on (is its agent running?)',
    );
    expect(whyMissed(drill([started, sent]), expectation)).toBe(
      'it never moved; its fault was sent to 1 instance, and none said it applied it',
    );
    const refused = { kind: 'fault_refused', text: 'Fault drill-7-0 refused by checkout/i-1: this service does not take faults' } as const;
    expect(whyMissed(drill([started, sent, refused]), expectation)).toBe(
      'it never moved; its fault was refused (this service does not take faults)',
    );
    const applied = { kind: 'fault_applied', text: 'Fault drill-7-0 applied by checkout/i-1' } as const;
    const halfOpen = { kind: 'transition', text: 'payments (checkout) CLOSED → HALF_OPEN on checkout/i-1: probe', breakerId: 31 } as const;
    const late = { kind: 'transition', text: 'payments (checkout) CLOSED → OPEN on checkout/i-1: 50 % failed', breakerId: 31 } as const;
    expect(whyMissed(drill([started, sent, applied, halfOpen]), expectation)).toBe(
      'it never reached OPEN; its last move: payments (checkout) CLOSED → HALF_OPEN on checkout/i-1: probe; its fault was applied on 1 instance',
    );
    // the fifth entry is 4 s after the start
    expect(whyMissed(drill([started, sent, applied, halfOpen, late]), expectation)).toBe(
      "it reached OPEN only 4 s after the drill's start; its fault was applied on 1 instance",
    );
  });

  it('ends a missed drill with its whole timeline and each expectation missed, a met one with one line', () => {
    const missed = verdictLines(drill([started, { kind: 'finished', text: 'Finished: its last step ended' }]), 'https://hub');
    expect(missed).toEqual([
      'Drill 7 "db-failover": missed, 0 of 1 expectation held',
      'Timeline:',
      '  12:00:00Z  started             Drill "db-failover" started by Ada Admin',
      '  12:00:01Z  finished            Finished: its last step ended',
      "Expectation 1 missed: payments (checkout) OPEN within 2 s of the drill's start: it never moved; no instance of checkout reported while its fault was on (is its agent running?)",
    ]);
    const met = drill([started], {
      state: 'running',
      verdict: 'met',
      expectations: [{ ...drill([]).expectations[0]!, result: 'met', tookSeconds: 1.2 }],
    });
    expect(verdictLines(met, 'https://hub')).toEqual([
      'Drill 7 "db-failover": met, its expectation held',
      'Drill 7 runs on until 12:00:10Z (stop it on its page: https://hub/drills/7)',
    ]);
  });

  it('counts down the step running, then the judging left', () => {
    const running = drill([], { state: 'running', verdict: 'pending', endedAt: null });
    expect(countdownText(running, Date.parse(at(3)))).toBe('Step 1 of 1: latency 800 ms on 25 % of calls of payments (checkout), 7 s left');
    const judging = drill([], {
      verdict: 'pending',
      expectations: [{ ...running.expectations[0]!, after: 'end', withinSeconds: 30, result: 'pending' }],
    });
    expect(countdownText(judging, Date.parse(at(15)))).toBe('Judging 1 expectation, 25 s left');
  });
});
