import {
  AGENT_FAULT_SILENCE_PERIODS,
  AGENT_PROTOCOL_VERSION,
  AGENT_REPORT_EVERY_MS,
  AGENT_REPORT_RESEND_MS,
  AGENT_REPORTS_PATH,
  type AgentBreakerControl,
  type AgentReport,
  type AgentReportReply,
} from '@cbh/contracts';
import type { Agent } from './agent';
import type { ActiveFault, FaultsChange } from './faults';
import { HubStream, installedWs, MAX_RETRY_AFTER_MS, type Outcome, refusalOf, streamUrlOf, type WsClass } from './hub-stream';

/** Where the connection says what happens to it: console by default; pino's and most loggers' info and warn fit. */
export interface HubLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface HubConnectionOptions {
  /** The hub's address, e.g. `https://hub.example.com`; reports go to its AGENT_REPORTS_PATH. */
  hubUrl: string;
  /** A service account's token; the reports' `service` must be that account's name. */
  token: string;
  logger?: HubLogger;
  /** Node's global fetch by default. */
  fetch?: typeof globalThis.fetch;
  /** How long a report may wait for the hub's answer; 5000 ms by default. */
  timeoutMs?: number;
  /** The first retry's delay after a failed report, doubled at each failure up to maxMs: 1000 and 30000 by default. */
  backoff?: { initialMs?: number; maxMs?: number };
  /**
   * `stream` (the default): one WebSocket to the hub's AGENT_STREAM_PATH for every report, each breaker's settings
   * sent only when they change; over HTTP when the service does not have the `ws` package, or while the hub has no
   * stream (a hub from before it, a proxy that does not pass upgrades: tried again every 5 minutes). `http`: a POST
   * to AGENT_REPORTS_PATH per report.
   */
  transport?: 'stream' | 'http';
  /** The WebSocket client the stream uses: the `ws` package's by default, when installed. */
  webSocket?: WsClass;
}

export interface HubStatus {
  /** Whether the last report reached the hub (true before the first). */
  reachable: boolean;
  /** Reports that failed in a row: the report not delivered is sent again as it was, its id and all. */
  failedReports: number;
  /** Why the last report failed, null when it did not. */
  lastError: string | null;
  /** Reports the hub accepted. */
  delivered: number;
  /**
   * Reports not delivered within AGENT_REPORT_RESEND_MS of their sentAt, dropped instead of sent again: the hub may
   * have forgotten their id by then and would count a try that had landed twice (it refuses them too).
   */
  expiredReports: number;
  reportEveryMs: number;
  /** How the last report was sent: on the stream, or as a POST. */
  transport: 'stream' | 'http';
}

export interface HubConnection {
  /** Stops reporting after one last report (best effort, a short wait), so that the hub has the final period. */
  stop(): Promise<void>;
  status(): HubStatus;
}

const MIN_PERIOD_MS = 250;
const MAX_PERIOD_MS = 60_000;
const LAST_REPORT_TIMEOUT_MS = 1000;
/** How long a connection reports over HTTP after it found the hub without a stream, before it tries the stream again. */
const STREAM_AGAIN_AFTER_MS = 5 * 60_000;
/** Distinct messages a connection remembers having logged, so that its memory stays bounded. */
const REMEMBERED_MESSAGES = 100;

const clamp = (ms: number) => Math.min(MAX_PERIOD_MS, Math.max(MIN_PERIOD_MS, ms));

function messageOf(body: string): string {
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message;
    if (Array.isArray(message)) return message.join('; ');
    if (typeof message === 'string') return message;
  } catch {
    // not JSON: the text itself, below
  }
  return body.slice(0, 200) || 'no message';
}

/** Retry-After in seconds or as an HTTP date, in ms from now; undefined when absent or unreadable. */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const ms = /^\d+$/.test(header.trim()) ? Number(header) * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : undefined;
}

/** A fault as words for the log: `errors on 50% of the calls of "payments" until 2026-01-01T00:01:00.000Z`. */
function describe(fault: ActiveFault): string {
  const what = fault.kind === 'error' ? 'errors' : `${fault.kind} of ${fault.delayMs} ms`;
  return `${what} on ${Math.round(fault.rate * 1000) / 10}% of the calls of "${fault.breaker}" until ${new Date(fault.untilMs).toISOString()}`;
}

function unreachable(error: unknown, timeoutMs: number): string {
  if ((error as Error | null)?.name === 'TimeoutError') return `hub unreachable: no answer within ${timeoutMs} ms`;
  // fetch fails with 'fetch failed' and the socket's error as its cause
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  return `hub unreachable: ${cause?.code ?? cause?.message ?? (error as Error | null)?.message ?? String(error)}`;
}

/**
 * Reports the agent's breakers to the hub every `reportEveryMs` (AGENT_REPORT_EVERY_MS until the hub's reply says
 * otherwise) and applies the controls of each reply. Everything runs on timers off the breakers' call path, and
 * the timers are unref()ed: the connection never keeps the service alive.
 *
 * It fails static: while the hub is down, failing, rate-limiting or refusing the token, the breakers keep their
 * settings and overrides, the connection retries with exponential backoff (with jitter; a Retry-After is honoured),
 * logs once when it loses the hub and once when it has it back; the report not delivered is sent again with its id
 * (the hub counts a report once, however often it lands), and the report after it covers every period since. A
 * report the hub refuses as invalid (400) is dropped, its message logged once.
 */
export function connectToHub(agent: Agent, options: HubConnectionOptions): HubConnection {
  const { token, logger = console, fetch = globalThis.fetch, timeoutMs = 5000 } = options;
  const hubUrl = new URL(options.hubUrl).href.replace(/\/+$/, '');
  const url = hubUrl + AGENT_REPORTS_PATH;
  const Ws = options.transport === 'http' ? null : (options.webSocket ?? installedWs());
  const stream = Ws ? new HubStream(streamUrlOf(hubUrl), token, Ws) : null;
  /** Until when reports go over HTTP, the hub having been found without a stream. */
  let streamAgainAt = 0;
  let transport: 'stream' | 'http' = stream ? 'stream' : 'http';
  const initialMs = options.backoff?.initialMs ?? 1000;
  const maxMs = options.backoff?.maxMs ?? 30_000;
  let reportEveryMs = AGENT_REPORT_EVERY_MS;
  /**
   * The report not delivered, sent again as it was (its id too, so that the hub counts it once if a try it did not
   * answer had landed); the periods since wait in the breakers' windows, which the next report drains, so memory
   * stays bounded however long the hub is away.
   */
  let pending: AgentReport | null = null;
  let failedReports = 0;
  let lastError: string | null = null;
  let delivered = 0;
  let expiredReports = 0;
  let timer: NodeJS.Timeout | undefined;
  /** Armed at each reply while faults run: when it fires, the hub has been silent too long and they are dropped. */
  let silence: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let stopped = false;
  const stopping = new AbortController();
  const logged = new Set<string>();

  /** Logs a message the first time only, within a bounded memory of what was logged. */
  const once = (level: 'info' | 'warn', message: string) => {
    if (logged.has(message)) return;
    if (logged.size >= REMEMBERED_MESSAGES) logged.clear();
    logged.add(message);
    logger[level](message);
  };
  const warnOnce = (message: string) => once('warn', message);

  async function post(report: AgentReport, signal: AbortSignal): Promise<Outcome> {
    let response: Response;
    let body: string;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(report),
        signal,
      });
      body = await response.text();
    } catch (error) {
      return { kind: 'failed', reason: unreachable(error, timeoutMs) };
    }
    const { status } = response;
    if (response.ok) {
      try {
        return { kind: 'delivered', reply: JSON.parse(body) as Partial<AgentReportReply> };
      } catch {
        return { kind: 'delivered', reply: null };
      }
    }
    return refusalOf(status, messageOf(body), retryAfter(response.headers.get('retry-after')));
  }

  /**
   * Sends a report on the stream, or as a POST while there is none: the hub has no stream when the socket does not
   * open and a POST of the same report is answered (a hub from before it, or a proxy that does not pass upgrades); a
   * hub that answers neither is away, and the stream is tried first again at the next report.
   */
  async function deliver(report: AgentReport, signal: AbortSignal): Promise<Outcome> {
    if (stream && Date.now() >= streamAgainAt) {
      const outcome = await stream.send(report, signal);
      if (outcome.kind !== 'no-stream') {
        transport = 'stream';
        return outcome;
      }
      const posted = await post(report, signal);
      if (posted.kind !== 'failed') {
        streamAgainAt = Date.now() + STREAM_AGAIN_AFTER_MS;
        if (transport === 'stream') logger.info(`${outcome.reason}: reporting over HTTP, the stream is tried again in 5 minutes`);
        transport = 'http';
      }
      return posted;
    }
    transport = 'http';
    return post(report, signal);
  }

  function apply(controls: AgentBreakerControl[]): void {
    for (const control of controls) {
      if (typeof control?.name !== 'string' || typeof control.revision !== 'number') continue;
      try {
        const result = agent.applyControl(control);
        for (const key of result?.settings?.unsupported ?? [])
          warnOnce(`breaker "${control.name}" cannot take the setting "${key}" at run time`);
        if (result?.refused) warnOnce(`breaker "${control.name}" refused the hub's settings: ${result.refused}`);
      } catch (error) {
        warnOnce(`breaker "${control.name}" could not apply the hub's control: ${(error as Error).message}`);
      }
    }
  }

  /**
   * The next report: the one not delivered yet, or else the periods since the last one. One not delivered for
   * AGENT_REPORT_RESEND_MS is dropped, its periods lost, rather than risk the hub counting it twice.
   */
  function nextReport(): AgentReport {
    if (pending && !(Date.now() - Date.parse(pending.sentAt) <= AGENT_REPORT_RESEND_MS)) {
      expiredReports++;
      logger.warn(
        `report of ${pending.sentAt} not delivered within ${AGENT_REPORT_RESEND_MS / 60_000} minutes: dropped, not sent again (the hub may have forgotten its id and would count it twice)`,
      );
      pending = null;
    }
    const report = pending ?? agent.report();
    pending = null;
    return report;
  }

  async function cycle(): Promise<void> {
    const report = nextReport();
    const outcome = await deliver(report, AbortSignal.any([AbortSignal.timeout(timeoutMs), stopping.signal]));
    if (outcome.kind === 'failed') {
      pending = report;
      if (stopped) return; // stop() sends it as the last report
      failedReports++;
      lastError = outcome.reason;
      if (failedReports === 1) logger.warn(`${outcome.reason}; the breakers keep their settings and overrides, reports will catch up`);
      schedule(outcome.retryAfterMs ?? backoff());
      return;
    }
    if (failedReports > 0) logger.info(`hub reachable again after ${failedReports} failed report${failedReports === 1 ? '' : 's'}`);
    failedReports = 0;
    lastError = null;
    if (outcome.kind === 'refused') warnOnce(`hub refused a report (400): ${outcome.message}; its period is dropped`);
    else accept(outcome.reply);
    schedule(reportEveryMs);
  }

  function accept(reply: Partial<AgentReportReply> | null): void {
    delivered++;
    if (reply?.version !== AGENT_PROTOCOL_VERSION) {
      warnOnce(`hub's reply is not of version ${AGENT_PROTOCOL_VERSION}: its controls are ignored`);
      return;
    }
    if (typeof reply.reportEveryMs === 'number' && Number.isFinite(reply.reportEveryMs)) reportEveryMs = clamp(reply.reportEveryMs);
    if (Array.isArray(reply.controls)) apply(reply.controls);
    if (Array.isArray(reply.notices)) for (const notice of reply.notices) if (typeof notice === 'string') warnOnce(`hub: ${notice}`);
    // a reply that lands while stop() runs must not start again the faults stop() ended
    if (!stopped) runFaults(agent.applyFaults(reply.faults));
  }

  /**
   * The reply's faults are the whole list (none ends them all); while some run, the hub must keep answering:
   * silent for AGENT_FAULT_SILENCE_PERIODS reporting periods, the connection drops them all — faults fail safe,
   * where settings and overrides fail static. A timer, off the breakers' call path.
   */
  function runFaults({ started, ended, refused }: FaultsChange): void {
    for (const fault of started) logger.info(`fault ${fault.id} started: ${describe(fault)}`);
    for (const id of ended) logger.info(`fault ${id} ended`);
    // a fault refused is refused again at each reply while the hub sends it: said once, it is in every report
    for (const { id, reason } of refused) once('info', `fault ${id} refused: ${reason}`);
    clearTimeout(silence);
    silence = undefined;
    if (agent.activeFaults().length === 0) return;
    silence = setTimeout(() => {
      silence = undefined;
      const dropped = agent.dropFaults();
      if (dropped.length > 0) {
        logger.warn(
          `no reply from the hub for ${AGENT_FAULT_SILENCE_PERIODS} reporting periods: faults ${dropped.join(', ')} dropped (faults fail safe; the breakers keep their settings and overrides)`,
        );
      }
    }, AGENT_FAULT_SILENCE_PERIODS * reportEveryMs);
    silence.unref();
  }

  /** 1 s, 2 s, 4 s… up to the cap, each less up to a fifth at random, so that a fleet of instances does not retry as one. */
  const backoff = () => Math.min(maxMs, initialMs * 2 ** (failedReports - 1)) * (1 - Math.random() * 0.2);

  function schedule(ms: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = cycle()
        .catch((error: unknown) => {
          // a report that could not even be built must not end the service: try again next period
          warnOnce(`report not sent: ${(error as Error)?.message ?? String(error)}`);
          schedule(reportEveryMs);
        })
        .finally(() => (running = null));
    }, ms);
    timer.unref();
  }

  schedule(0);

  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      clearTimeout(silence);
      // no hub to end them any more: the faults end now, not at their until
      const dropped = agent.dropFaults();
      if (dropped.length > 0) logger.info(`faults ${dropped.join(', ')} dropped: the connection to the hub is stopped`);
      stopping.abort();
      await running; // a report in flight is abandoned and kept in pending
      const deadline = AbortSignal.timeout(LAST_REPORT_TIMEOUT_MS);
      // the report not delivered first (its id makes a second landing harmless), then the last periods
      let outcome = pending ? await deliver(nextReport(), deadline) : null;
      if (outcome?.kind !== 'failed') outcome = await deliver(nextReport(), deadline);
      stream?.close();
      if (outcome.kind === 'delivered') delivered++;
      else if (failedReports === 0)
        logger.warn(`last report not delivered: ${outcome.kind === 'failed' ? outcome.reason : outcome.message}`);
    },

    status: () => ({ reachable: failedReports === 0, failedReports, lastError, delivered, expiredReports, reportEveryMs, transport }),
  };
}
