import { blastRadius, countdownText, outcomeText, stepPhase } from './drill-text';
import { runningDrill, stoppedDrill } from './test-kit';

const payments = { name: 'payments', service: null };

it("says a step's blast radius in words: the fault, whose calls, which instances, how long", () => {
  const step = { breaker: payments, instances: 'all' as const, durationSeconds: 60 };
  expect(blastRadius({ ...step, fault: { kind: 'latency', rate: 0.25, latencyMs: 800 } })).toBe(
    "latency 800 ms on 25 % of payments' calls on all instances for 60 s",
  );
  expect(
    blastRadius({ ...step, breaker: { name: 'search', service: 'catalogue' }, instances: 30, fault: { kind: 'timeout', rate: 1 } }),
  ).toBe("timeouts on 100 % of search's calls on 30 % of instances of catalogue for 60 s");
});

it('counts down in minutes and seconds, hours past an hour, never below zero', () => {
  const now = Date.parse('2026-05-01T12:00:00.000Z');
  expect(countdownText('2026-05-01T12:01:05.000Z', now)).toBe('1:05');
  expect(countdownText('2026-05-01T12:00:00.400Z', now)).toBe('0:01');
  expect(countdownText('2026-05-01T13:02:03.000Z', now)).toBe('1:02:03');
  expect(countdownText('2026-05-01T11:59:00.000Z', now)).toBe('0:00');
});

it('places each step: waiting, running, ran; once stopped, cut short or never run', () => {
  const drill = runningDrill();
  const [first, second] = drill.steps;
  const now = Date.now();
  expect(stepPhase(first!, drill, now)).toBe('running');
  expect(stepPhase(second!, drill, now)).toBe('waiting');
  expect(stepPhase(first!, drill, now + 45_000)).toBe('ran');
  const stopped = stoppedDrill();
  expect(stepPhase(first!, stopped, now)).toBe('cut');
  expect(stepPhase(second!, stopped, now)).toBe('skipped');
  expect(stepPhase(first!, { state: 'finished', endedAt: second!.endsAt }, now)).toBe('ran');
});

it("tells the report's outcome: how it ended, and how the expectations came out", () => {
  expect(outcomeText(stoppedDrill())).toBe('Stopped by Bob after 30 s. 1 of 2 expectations met, 1 missed.');
  const finished = { ...runningDrill(), state: 'finished' as const, endedAt: runningDrill().endsAt, expectations: [] };
  expect(outcomeText(finished)).toBe('Finished after 2 min, every step run to its end. It set no expectations.');
});
