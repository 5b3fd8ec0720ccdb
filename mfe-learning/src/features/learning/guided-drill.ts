import {
  hasPermission,
  type AuthUser,
  type BreakerConfigView,
  type BreakerStateName,
  type BreakerStats,
  type CreateDrill,
  type DrillView,
  type TestSessionView,
} from '@cbh/contracts';

/*
 * The guided drill's plan and words: which breaker it runs on, the load test and the drill it starts, and what the
 * live breaker's state means at each step; the screens only lay them out.
 */

/** The demo services' adaptive breaker (SEED_DEMO): slow calls count as failures, so a latency fault opens it. */
export const INVENTORY_BREAKER = 'Inventory Service';
export const GUIDED_DRILL_NAME = 'Guided drill: slow inventory';

/** Good calls for the breaker to judge: 20 a second for 2 minutes, none failing (the API takes minutes). */
export const TRAFFIC = { requestRate: 20, durationMinutes: 2, failureRate: 0 } as const;
/** Every call 1.5 s slower for 45 s: over the breaker's 1 s limit, so each counts as failed. */
export const FAULT = { latencyMs: 1500, durationSeconds: 45, openWithinSeconds: 30 } as const;

/** The settings the lessons' words are made from. */
export type TaughtBreaker = Pick<
  BreakerConfigView,
  'name' | 'type' | 'failureThreshold' | 'timeout' | 'recoveryTime' | 'successThreshold' | 'minimumCalls' | 'slowCallDuration'
>;

/** Inventory Service as SEED_DEMO makes it: what the lessons say to someone who cannot see the hub's own. */
export const DEMO_INVENTORY: TaughtBreaker = {
  name: INVENTORY_BREAKER,
  type: 'adaptive',
  failureThreshold: 5,
  timeout: 30_000,
  recoveryTime: 60_000,
  successThreshold: 3,
  minimumCalls: 10,
  slowCallDuration: 1000,
};

/** The demo's Inventory Service breaker: one of the hub's own (an agent's breaker of that name is another one). */
export function findInventoryBreaker(breakers: readonly BreakerConfigView[] | undefined): BreakerConfigView | undefined {
  return breakers?.find((breaker) => breaker.name === INVENTORY_BREAKER && breaker.source === 'hub');
}

/** POST /api/test-sessions: the traffic of step 1. */
export function trafficBody(configId: number) {
  return { configId, failureRate: TRAFFIC.failureRate, requestRate: TRAFFIC.requestRate, duration: TRAFFIC.durationMinutes };
}

/** POST /api/drills: the fault of step 2, expected to open the breaker within 30 s of the start. */
export function drillBody(configId: number): CreateDrill {
  return {
    name: GUIDED_DRILL_NAME,
    steps: [
      {
        breaker: configId,
        fault: { kind: 'latency', rate: 1, latencyMs: FAULT.latencyMs },
        instances: 'all',
        durationSeconds: FAULT.durationSeconds,
      },
    ],
    expectations: [{ breaker: configId, state: 'OPEN', withinSeconds: FAULT.openWithinSeconds, after: 'start' }],
  };
}

/** What the account may do here: watch the live breaker, send traffic, start and stop the drill. */
export function guidedDrillAccess(user: AuthUser | null) {
  return {
    canView: hasPermission(user, 'circuit_breaker_view'),
    canOperate: hasPermission(user, 'circuit_breaker_operate'),
    canAdminister: hasPermission(user, 'circuit_breaker_admin'),
  };
}

/** A guided drill on this breaker still running: one started before the page was opened again is followed too. */
export function runningGuidedDrill(drills: readonly DrillView[] | undefined, configId: number): DrillView | undefined {
  return drills?.find(
    (drill) => drill.state === 'running' && drill.name === GUIDED_DRILL_NAME && drill.steps.some((step) => step.breaker.id === configId),
  );
}

/**
 * The freshest word on the followed drill: the list is read again on every drillChanged, but a stop's own answer
 * arrives before that, and an ended drill never runs again.
 */
export function freshestDrill(candidates: readonly (DrillView | undefined)[], id: number | undefined): DrillView | undefined {
  const same = candidates.filter((drill): drill is DrillView => drill !== undefined && drill.id === id);
  return same.find((drill) => drill.state !== 'running') ?? same[0];
}

/** A load test of this breaker still sending calls at `now`. */
export function runningTraffic(sessions: readonly TestSessionView[] | undefined, now: number): TestSessionView | undefined {
  return sessions?.find((session) => session.status === 'running' && Date.parse(session.endsAt) > now);
}

const seconds = (value: number) => `${Math.max(0, Math.round(value))} s`;
const secondsBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;

/**
 * How long it took to open, in seconds from the drill's start: the drill's own judgement once it has made it, else
 * the live state's last move while that is OPEN.
 */
export function openedAfter(drill: DrillView, stats: BreakerStats | undefined): number | null {
  const expectation = drill.expectations.find((each) => each.state === 'OPEN' && each.after === 'start');
  if (expectation?.result === 'met' && expectation.tookSeconds !== null) return expectation.tookSeconds;
  if (drill.state === 'running' && stats?.state === 'OPEN' && stats.lastTransitionAt)
    return Math.max(0, secondsBetween(drill.startedAt, stats.lastTransitionAt));
  return null;
}

/** Step 3 in words, from the drill and the live state. */
export function openingText(drill: DrillView | undefined, stats: BreakerStats | undefined): string {
  if (!drill) return 'Waiting for the drill: the breaker is judged once its calls slow down.';
  const after = openedAfter(drill, stats);
  // the adaptive breaker often opens within the first second of slow calls: "after 0 s" would read as a mistake
  if (after !== null) {
    return `Opened ${after < 0.5 ? 'within a second' : `after ${seconds(after)}`}: the breaker stopped calling the slow service.`;
  }
  const expectation = drill.expectations.find((each) => each.state === 'OPEN');
  if (expectation?.result === 'missed')
    return `It did not open within ${expectation.withinSeconds} s. With too few calls, or a long run of good ones before the fault, the slow ones were too few to trip it.`;
  if (drill.state !== 'running') return 'The drill ended before the breaker opened.';
  if (!stats) return 'Waiting for the live figures…';
  if (stats.state === 'CLOSED') return `Still closed: slow calls are adding up (average response ${Math.round(stats.latency.mean)} ms).`;
  return stateWords(stats.state);
}

/** Step 4 in words once the fault has ended: where the breaker stands, and how long the way back took. */
export function recoveryText(drill: DrillView | undefined, stats: BreakerStats | undefined, breaker: TaughtBreaker): string | null {
  if (!drill || drill.state === 'running') return null;
  if (!stats) return 'Waiting for the live figures…';
  const ended = drill.endedAt ?? drill.endsAt;
  const how = drill.state === 'stopped' ? 'the stop' : 'the drill ended';
  if (stats.state === 'OPEN') return 'Still open: it waits out its open period before it lets trial calls through.';
  if (stats.state === 'HALF_OPEN')
    return `Half-open: trial calls are testing the service; ${breaker.successThreshold} good ones close the breaker.`;
  const moved = stats.lastTransitionAt && Date.parse(stats.lastTransitionAt) > Date.parse(ended);
  return moved
    ? `Closed again ${seconds(secondsBetween(ended, stats.lastTransitionAt!))} after ${how}: good calls came back, and every call goes through.`
    : 'Closed: calls are fast again and every call goes through.';
}

/**
 * How long the way back takes, from the breaker's own settings. An adaptive breaker stays open for half its timeout,
 * doubled (up to the whole timeout) each time it trips again within its recovery time of closing.
 */
export function openPeriodText(breaker: TaughtBreaker): string {
  const timeout = breaker.timeout / 1000;
  const trials = `${breaker.successThreshold} good trial call${breaker.successThreshold === 1 ? '' : 's'}`;
  if (breaker.type !== 'adaptive')
    return `${breaker.name} stays open for its timeout, ${timeout} s, then lets trial calls through: ${trials} close it.`;
  return (
    `${breaker.name} stays open for ${timeout / 2} s — half its ${timeout} s timeout, and up to the whole ${timeout} s when it ` +
    `trips again within ${breaker.recoveryTime / 1000} s of closing — then lets trial calls through: ${trials} close it.`
  );
}

/** The live state in words, as the section's status line says it. */
export function stateWords(state: BreakerStateName): string {
  if (state === 'OPEN') return 'Open: calls are refused at once, without waiting on the slow service.';
  if (state === 'HALF_OPEN') return 'Half-open: a few trial calls test whether the service is well again.';
  return 'Closed: every call goes through, and the breaker judges how they fare.';
}

/** The rule an adaptive breaker opens by, from its settings, for step 2's lesson. */
export function slowCallRule(breaker: TaughtBreaker): string {
  const limit = breaker.slowCallDuration ?? 1000;
  const minimum = breaker.minimumCalls ?? 10;
  return (
    `An adaptive breaker counts a call slower than ${limit} ms as failed, even when it succeeds. Once it has seen ` +
    `${minimum} calls in its last ${breaker.recoveryTime / 1000} s and ${Math.min(100, breaker.failureThreshold * 10)} % of them failed, it opens.`
  );
}

export interface Lesson {
  title: string;
  text: string;
}

/** The four steps' lessons, in the breaker's own numbers. */
export function lessons(breaker: TaughtBreaker): [Lesson, Lesson, Lesson, Lesson] {
  return [
    {
      title: 'Send traffic',
      text:
        `A breaker judges calls, so first it needs some: a load test sends ${TRAFFIC.requestRate} simulated calls a second ` +
        `through ${breaker.name} for ${TRAFFIC.durationMinutes} minutes, none of them failing.`,
    },
    {
      title: 'Inject latency',
      text:
        `${slowCallRule(breaker)} The drill adds ${FAULT.latencyMs} ms to every call for ${FAULT.durationSeconds} s and expects ` +
        `the breaker to open within ${FAULT.openWithinSeconds} s. Start it soon after the traffic: the longer good calls have ` +
        `filled the window, the longer slow ones take to outweigh them.`,
    },
    {
      title: 'Watch it open',
      text:
        `Open, the breaker refuses calls at once rather than wait ${FAULT.latencyMs / 1000} s on each: its callers fail fast, ` +
        `and the slow service is left alone to recover.`,
    },
    {
      title: 'Stop the drill, watch it recover',
      text: `Stopping ends the fault at once, but the breaker only finds out by trying: ${openPeriodText(breaker)}`,
    },
  ];
}
