// No schema library here, as in breaker-vocabulary.ts: a service's agent imports these words and nothing more.
import { type BreakerOverride, type BreakerStateName } from './breaker-vocabulary';
import { type ManualAction } from './manual-control';

/*
 * What a service's agent sends the hub about the breakers it runs, and what the hub sends back. The states,
 * overrides and manual actions are the hub's own words (breaker-vocabulary.ts, manual-control.ts).
 */

/** The report format's version; a report carries it, and a reader refuses a version it does not know. */
export const AGENT_PROTOCOL_VERSION = 1;

/** The breaker libraries an agent wraps; `cbh` is this project's own engine, @cbh/breaker. */
export const AGENT_LIBRARIES = ['opossum', 'cockatiel', 'cbh'] as const;
export type AgentLibrary = (typeof AGENT_LIBRARIES)[number];

/** What a report may hold at most, and so what an agent refuses to build beyond. */
export const AGENT_PROTOCOL_LIMITS = {
  breakersPerInstance: 500,
  /** Latency histogram bins, the overflow bin included. */
  histogramBins: 32,
  transitionsPerReport: 100,
  /** Characters in a service, instance or breaker name. */
  nameLength: 200,
  /** The largest report the hub reads (bytes). */
  reportBytes: 1024 * 1024,
  /**
   * Breakers one service may have on the hub; distinct instances that reported within the last hour (a new one past
   * it is refused, 429); the instance rows (instances × their breakers) a service may hold when a new instance comes.
   */
  breakersPerService: 2000,
  instancesPerService: 1000,
  instanceRowsPerService: 50_000,
  /** Reported moves journalled per service and minute; the rest of the minute's are dropped (counted in the reply's notices). */
  movesPerServicePerMinute: 600,
  /** Characters in a report's id. */
  reportIdLength: 100,
  /** Faults one instance runs at once (one per breaker under a drill). */
  faultsPerInstance: 100,
  /** Reports one stream may have waiting for their answers; an agent sends the next after the answer. */
  reportsInFlight: 4,
  /** Streams one token may hold open on one replica (an instance holds one). */
  streamsPerToken: 1000,
} as const;

/** A breaker's settings in its own library's words (opossum's errorThresholdPercentage, cockatiel's halfOpenAfter…). */
export type AgentBreakerSettings = Record<string, number | string | boolean>;

/**
 * Latencies of the calls that ran (rejected calls did not): `counts[i]` calls took at most `boundsMs[i]` ms and more
 * than `boundsMs[i - 1]`; the last count, one more than there are bounds, holds the calls slower than every bound.
 */
export interface AgentLatencyHistogram {
  boundsMs: number[];
  counts: number[];
}

/** One breaker's calls over the reporting period that ended with the report. */
export interface AgentWindow {
  successes: number;
  failures: number;
  timeouts: number;
  /** Calls the breaker refused (open, isolated, or full). */
  rejections: number;
  /** Calls slower than the breaker's slow-call duration, where it has one; also counted by their outcome. */
  slowCalls?: number;
  latencyHistogram: AgentLatencyHistogram;
  /** The slowest call of the period in ms, 0 when none ran. */
  longestCallMs: number;
}

/** A change of state the breaker took during the period; `at` is ISO 8601. */
export interface AgentTransition {
  from: BreakerStateName;
  to: BreakerStateName;
  at: string;
  reason: string;
}

export interface AgentBreakerReport {
  name: string;
  library: AgentLibrary;
  /** The library's kind of breaker: opossum 'error-percentage', cockatiel 'consecutive' or 'sampling', cbh its type. */
  type: string;
  /**
   * The breaker's settings in its library's words. Required in a report POSTed to AGENT_REPORTS_PATH; on the stream
   * (AGENT_STREAM_PATH) they may be left out while they are the same as in the last report the hub took (answered
   * 200) on that connection, which must have reported this breaker.
   */
  settings?: AgentBreakerSettings;
  state: BreakerStateName;
  override: BreakerOverride;
  window: AgentWindow;
  transitions: AgentTransition[];
}

/** The kinds of fault a drill injects into a breaker's calls. */
export const FAULT_KINDS = ['latency', 'error', 'timeout'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The name (`error.name`) of the error an injected `error` fault throws, so that callers and logs can tell it apart. */
export const INJECTED_FAULT_NAME = 'InjectedFault';

/**
 * Faults fail safe: an instance that has not heard the hub for this many reporting periods drops every fault it
 * runs (the opposite of settings and controls, which stay as they were — fail static).
 */
export const AGENT_FAULT_SILENCE_PERIODS = 2;

/**
 * A fault the hub asks an instance to inject into one of its breakers' calls (a drill's step), until `until` (ISO 8601)
 * by the instance's own clock:
 * - `latency`: `rate` of the calls (0 to 1) are delayed by `latencyMs` before they run;
 * - `error`: `rate` of the calls fail at once with an error named INJECTED_FAULT_NAME, the call not made;
 * - `timeout`: `rate` of the calls take longer than the breaker's timeout (`latencyMs` when given, else the
 *   breaker's own timeout and a little more), so that the breaker times them out where it has a timeout.
 */
export interface AgentFault {
  /** The drill step's id (`drill-<drill>-<step>`): the same in every reply while the step runs. */
  id: string;
  /** The breaker's name in the service. */
  breaker: string;
  kind: FaultKind;
  rate: number;
  latencyMs?: number;
  until: string;
}

/** What an instance says of faults in each report: optional in version 1 (an agent from before says nothing). */
export interface AgentFaultsStatus {
  /** Whether the service opted in (`createAgent({ allowFaults: true })`); when false, every fault is refused. */
  allowed: boolean;
  /** The ids of the faults the instance runs now. */
  active: string[];
  /** The faults it refused, and why (not allowed, no breaker of that name, a fault it cannot apply). */
  refused?: { id: string; reason: string }[];
}

/** What one instance of a service sends each reporting period; `sentAt` is ISO 8601. */
export interface AgentReport {
  version: typeof AGENT_PROTOCOL_VERSION;
  service: string;
  instance: string;
  sentAt: string;
  /**
   * How long the windows cover, in ms: the time since the previous report, or the periods a report merged after the
   * hub was away. Optional (the hub takes its reporting period then); the hub divides calls by it for calls/s.
   */
  periodMs?: number;
  /**
   * The report's own id, new for each report and the same on each retry of it: the hub takes a report of an id it
   * already took (within AGENT_REPORT_ID_TTL_MS) as delivered and counts nothing of it again. Optional in version 1.
   */
  id?: string;
  breakers: AgentBreakerReport[];
  /** What it does with the drills' faults (AgentFaultsStatus). Optional in version 1. */
  faults?: AgentFaultsStatus;
}

/**
 * How long the hub remembers a report's id: a retry within it is counted once. An agent retries within 5 minutes
 * (its longest backoff, or a Retry-After of at most 5 minutes), so a retry of a report that landed comes well inside.
 */
export const AGENT_REPORT_ID_TTL_MS = 15 * 60_000;

/**
 * How old (by its sentAt) a report carrying an id may be when sent again: an agent drops an older report instead of
 * resending it, and the hub refuses one (400), since its id may be forgotten and a try that landed counted twice. The
 * 5 minutes short of AGENT_REPORT_ID_TTL_MS cover the time in flight and an agent's clock up to 5 minutes off.
 */
export const AGENT_REPORT_RESEND_MS = AGENT_REPORT_ID_TTL_MS - 5 * 60_000;

/** A manual control the hub sends an agent for one of its breakers: the operators' own actions. */
export interface AgentCommand {
  name: string;
  action: ManualAction;
}

/** New settings for one breaker, in its library's words; those left out stay as they are. */
export interface AgentSettingsChange {
  name: string;
  settings: AgentBreakerSettings;
}

/** Where an agent sends its reports: `POST` with `Authorization: Bearer <a service account's token>`. */
export const AGENT_REPORTS_PATH = '/api/agent/reports';

/**
 * Where an agent may keep one WebSocket open instead of POSTing each report: the upgrade carries `Authorization:
 * Bearer <a service account's token>` (refused as the POST is: 401, 403, 429 and 503 with Retry-After). Each text
 * frame the agent sends is an AgentReport, and the hub answers each with one AgentStreamAnswer, in the order the
 * reports came. A breaker's `settings` may be left out of a report while they are the same as in the last report the
 * hub took (answered 200) on the same connection, which reported that breaker (a new connection starts with none).
 * Streams that do not answer a ping within 30 s are ended. The hub closes the socket with
 * AGENT_STREAM_CLOSE.goingAway when the replica shuts down (the agent reconnects, to another replica behind a
 * balancer, and resends a report not answered with its id), and with AGENT_STREAM_CLOSE.tooMany when more than
 * AGENT_PROTOCOL_LIMITS.reportsInFlight reports wait for their answers.
 */
export const AGENT_STREAM_PATH = '/api/agent/stream';

/** The close codes of the stream (WebSocket close codes; a frame larger than reportBytes closes it with 1009). */
export const AGENT_STREAM_CLOSE = { goingAway: 1001, tooMany: 1008 } as const;

/**
 * The hub's answer to a report on the stream: `status` as the POST's would be (200 with its reply; 400 a report the
 * hub will never take; 403; 429 and 503 with `retryAfterS`, when to send it again).
 */
export type AgentStreamAnswer =
  { status: 200; reply: AgentReportReply } | { status: 400 | 403 | 429 | 500 | 503; message: string; retryAfterS?: number };

/** How often an agent reports, unless the hub's reply says otherwise (`reportEveryMs`). */
export const AGENT_REPORT_EVERY_MS = 1000;

/**
 * An instance silent for this many reporting periods leaves the merged figures and is shown as stale; the hub
 * keeps an instance's last periods for the rolling window the wall shows.
 */
export const AGENT_STALE_PERIODS = 3;

/**
 * What the hub wants one breaker to be, in the reply to every report. The hub raises `revision` with every change
 * an operator makes (settings or a manual control); an agent applies a breaker's control when its revision is
 * newer than the one it applied last (0 at its start), so every instance, a restarted one included, converges on
 * the hub's choice however many replies it missed:
 * - `settings`: the settings the hub set, in the library's words, or null while the hub set none;
 * - `override`: `forced-open`, `forced-closed`, `disabled`, or `none` (`none` lifts only an override the hub set:
 *   one the service set itself stays);
 * - `resetRevision`: the revision of the last Reset (0 when never): an agent whose applied revision is older
 *   resets the breaker, then applies the override.
 */
export interface AgentBreakerControl {
  name: string;
  revision: number;
  override: BreakerOverride;
  settings: AgentBreakerSettings | null;
  resetRevision: number;
}

/** The hub's 200 answer to a report: the controls of the reported breakers the hub has ever changed. */
export interface AgentReportReply {
  version: typeof AGENT_PROTOCOL_VERSION;
  reportEveryMs: number;
  controls: AgentBreakerControl[];
  /** What the hub left out of the report and why (a limit reached): an agent logs each once. */
  notices?: string[];
  /**
   * The faults this instance is to run now, the whole list each time: a fault left out ends. Absent while no drill
   * touches the instance. An agent from before this field ignores it.
   */
  faults?: AgentFault[];
}
