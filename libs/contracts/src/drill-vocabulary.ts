// No schema library here: the drills page imports these words, and a module with schemas would bring one along.
import type { BreakerStateName } from './breaker-vocabulary';
import type { FaultKind } from './agent-protocol';

/*
 * Resilience drills: faults injected into chosen breakers' calls — on the instances of a service through its agent,
 * and on the hub's own breakers in its engine — for a bounded time, with expectations of how the breakers react.
 */

export const DRILL_LIMITS = {
  nameLength: 100,
  steps: 20,
  expectations: 20,
  /** The longest a step may inject its fault. */
  durationSecondsMax: 900,
  /** The longest an expectation may wait for its state. */
  withinSecondsMax: 3600,
  latencyMsMax: 120_000,
  /** Drills running at once on the hub (a site limit: each hurts real traffic). */
  runningAtOnce: 5,
  /** A drill hurts real traffic: it is started only by someone who signed in within this many minutes. */
  recentSignInMinutes: 10,
  /** Drills listed, newest first. */
  listed: 100,
  /** Timeline entries a drill's page shows at most. */
  timeline: 1000,
  /** Saved drills on the hub (GET /api/drill-definitions, the configuration document's `drills`). */
  definitions: 100,
  /** Saved drills GET /api/drill-definitions lists at most: above `definitions`, so it lists every one. */
  definitionsListed: 200,
} as const;

/** A drill runs its steps one after the other; it ends when its last step does, or when someone stops it. */
export const DRILL_STATES = ['running', 'finished', 'stopped'] as const;
export type DrillState = (typeof DRILL_STATES)[number];

/** Whether a drill's expectations all held: pending until each is met or its time is up. */
export const DRILL_VERDICTS = ['met', 'missed', 'pending'] as const;
export type DrillVerdict = (typeof DRILL_VERDICTS)[number];

/** A breaker a drill names: its id on the hub, or the service and name an agent reports it by. */
export type DrillBreakerRef = number | { service: string; name: string };

export interface DrillFault {
  kind: FaultKind;
  /** The share of calls it hits, 0 to 1. */
  rate: number;
  /** latency: the delay; timeout: how long the calls take (the breaker's timeout and more when left out). */
  latencyMs?: number;
}

export interface DrillBreakerView {
  id: number;
  name: string;
  /** The service whose agent runs it; null for one of the hub's own breakers. */
  service: string | null;
}

export interface DrillStepView {
  index: number;
  breaker: DrillBreakerView;
  fault: DrillFault;
  /** Every instance, or this percentage of them (chosen by a hash of the instance, the same for the whole step). */
  instances: 'all' | number;
  durationSeconds: number;
  startsAt: string;
  endsAt: string;
}

export interface DrillExpectationView {
  breaker: DrillBreakerView;
  state: BreakerStateName;
  withinSeconds: number;
  after: 'start' | 'end';
  result: DrillVerdict;
  /** Seconds from its reference (the drill's start or end) to the state, when met. */
  tookSeconds: number | null;
}

export interface DrillView {
  id: number;
  name: string;
  state: DrillState;
  startedAt: string;
  /** When its last step ends (or ended). */
  endsAt: string;
  /** When it ended: its last step's end, or the stop. */
  endedAt: string | null;
  /** Who started it, by name or role (never an e-mail); null once that account is gone. */
  startedBy: string | null;
  /** Who stopped it early, likewise; null when it ran to its end. */
  stoppedBy: string | null;
  steps: DrillStepView[];
  expectations: DrillExpectationView[];
  verdict: DrillVerdict;
}

export const DRILL_TIMELINE_KINDS = [
  'started',
  'step_started',
  'fault_sent',
  'fault_applied',
  'fault_refused',
  'transition',
  'notification',
  'expectation_met',
  'expectation_missed',
  'stopped',
  'finished',
] as const;
export type DrillTimelineKind = (typeof DRILL_TIMELINE_KINDS)[number];

/**
 * A breaker a saved drill names, as the configuration document names breakers (ids differ between hubs): one of the
 * hub's own by its name, a service's by the service and the name its agent reports it by.
 */
export type DrillDefinitionBreakerRef = string | { service: string; name: string };

export interface DrillDefinitionStep {
  breaker: DrillDefinitionBreakerRef;
  fault: DrillFault;
  instances: 'all' | number;
  durationSeconds: number;
}

export interface DrillDefinitionExpectation {
  breaker: DrillDefinitionBreakerRef;
  state: BreakerStateName;
  withinSeconds: number;
  after: 'start' | 'end';
}

/** A saved drill (GET /api/drill-definitions): its steps and expectations as stored, breakers by name. */
export interface DrillDefinitionView {
  id: number;
  name: string;
  steps: DrillDefinitionStep[];
  expectations: DrillDefinitionExpectation[];
  updatedAt: string;
}

export interface DrillTimelineEntry {
  at: string;
  kind: DrillTimelineKind;
  text: string;
  /** The instance a fault entry is about. */
  instance?: string;
  breakerId?: number;
}

export interface DrillDetailView extends DrillView {
  timeline: DrillTimelineEntry[];
}

/** A step's fault as words: "latency 800 ms on 25 % of calls". */
export function describeFault(fault: DrillFault): string {
  const share = `${Math.round(fault.rate * 1000) / 10} % of calls`;
  if (fault.kind === 'latency') return `latency ${fault.latencyMs ?? 0} ms on ${share}`;
  if (fault.kind === 'timeout') return `timeouts${fault.latencyMs ? ` (${fault.latencyMs} ms)` : ''} on ${share}`;
  return `errors on ${share}`;
}

/** The id of a drill step's fault, as agents see it in a reply and report it back. */
export const drillFaultId = (drillId: number, stepIndex: number) => `drill-${drillId}-${stepIndex}`;
