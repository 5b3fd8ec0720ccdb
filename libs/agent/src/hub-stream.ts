import {
  AGENT_PROTOCOL_LIMITS,
  AGENT_STREAM_PATH,
  type AgentBreakerSettings,
  type AgentReport,
  type AgentReportReply,
  type AgentStreamAnswer,
} from '@cbh/contracts';

/** What became of one report, however it was sent. */
export type Outcome =
  | { kind: 'delivered'; reply: Partial<AgentReportReply> | null }
  /** 400: the hub will refuse this report however often it is sent. */
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; reason: string; retryAfterMs?: number };

/** A Retry-After longer than this is taken as this: a hub misconfigured must not silence its agents for days. */
export const MAX_RETRY_AFTER_MS = 300_000;

/** The few members of the `ws` package's client the stream uses. */
interface WsClient {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: 'message', listener: (data: unknown) => void): this;
  on(event: 'close', listener: (code: number, reason: unknown) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  once(event: 'open', listener: () => void): this;
  once(event: 'upgrade', listener: (response: { socket: { unref(): void } }) => void): this;
  once(
    event: 'unexpected-response',
    listener: (request: unknown, response: { statusCode?: number; headers: Record<string, unknown> }) => void,
  ): this;
}
export type WsClass = new (
  url: string,
  options: { headers: Record<string, string>; maxPayload: number; handshakeTimeout: number },
) => WsClient;

/**
 * The `ws` package, when the service has it (an optional peer dependency: Node 20 has no WebSocket client that sends
 * a header); null without it, and the connection reports over HTTP.
 */
export function installedWs(): WsClass | null {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an optional peer, looked for at run time
    const ws = require('ws') as WsClass & { WebSocket?: WsClass };
    return ws.WebSocket ?? ws;
  } catch {
    return null;
  }
}

/** Retry-After in seconds, in ms, within MAX_RETRY_AFTER_MS. */
const retryAfterMs = (seconds: number | undefined) =>
  seconds === undefined || !Number.isFinite(seconds) ? undefined : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, seconds * 1000));

/** Why an upgrade was not taken: the token (401, 403), a limit or a replica shutting down (429, 503), or no stream at all. */
export type Unopened = { kind: 'failed'; reason: string; retryAfterMs?: number } | { kind: 'no-stream'; reason: string };

const OPEN = 1;

/**
 * One instance's stream to the hub (AGENT_STREAM_PATH): opened at the first report and again after it closes, each
 * report answered in order before the next is sent. A breaker's settings go in a report only while they differ from
 * those of the last report the hub took on this connection (a new connection sends them all again).
 */
export class HubStream {
  private socket: WsClient | null = null;
  /** Each breaker's settings as JSON in the last report the hub took on this socket. */
  private taken = new Map<string, string>();
  private waiting: ((outcome: Outcome) => void) | null = null;

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly Ws: WsClass,
  ) {}

  get open(): boolean {
    return this.socket?.readyState === OPEN;
  }

  /** Sends a report and resolves with what became of it; Unopened when the socket could not be opened. */
  async send(report: AgentReport, signal: AbortSignal): Promise<Outcome | Unopened> {
    if (!this.open) {
      const unopened = await this.connect(signal);
      if (unopened) return unopened;
    }
    const socket = this.socket!;
    const frame = JSON.stringify({ ...report, breakers: report.breakers.map((breaker) => this.withoutTakenSettings(breaker)) });
    const outcome = await new Promise<Outcome>((resolve) => {
      const abort = () => {
        // answers come in order: a late one would be taken for the next report's, so the socket goes
        socket.terminate();
        resolve({ kind: 'failed', reason: 'hub unreachable: no answer in time on the stream' });
      };
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      this.waiting = (outcome) => {
        signal.removeEventListener('abort', abort);
        resolve(outcome);
      };
      socket.send(frame);
    });
    this.waiting = null;
    // the hub's memory changes only with a report it took; after any other outcome the settings all go again, which
    // is always taken, so the two memories never disagree for long
    this.taken =
      outcome.kind === 'delivered'
        ? new Map(report.breakers.map((breaker) => [breaker.name, JSON.stringify(breaker.settings)]))
        : new Map();
    return outcome;
  }

  close(): void {
    this.socket?.close(1000, 'Agent stopped');
    this.socket = null;
  }

  private withoutTakenSettings(breaker: AgentReport['breakers'][number]) {
    if (this.taken.get(breaker.name) !== JSON.stringify(breaker.settings)) return breaker;
    const { settings: _settings, ...rest } = breaker as typeof breaker & { settings?: AgentBreakerSettings };
    return rest;
  }

  private connect(signal: AbortSignal): Promise<Unopened | null> {
    this.taken.clear();
    return new Promise((resolve) => {
      let settled = false;
      const settle = (unopened: Unopened | null) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', abort);
        resolve(unopened);
      };
      const socket = new this.Ws(this.url, {
        headers: { authorization: `Bearer ${this.token}` },
        maxPayload: AGENT_PROTOCOL_LIMITS.reportBytes,
        handshakeTimeout: 10_000,
      });
      const abort = () => {
        socket.terminate();
        settle({ kind: 'failed', reason: 'hub unreachable: the stream did not open in time' });
      };
      signal.addEventListener('abort', abort, { once: true });
      // like the connection's timers, the stream never keeps the service alive
      socket.once('upgrade', (response) => response.socket.unref());
      socket.once('open', () => {
        this.socket = socket;
        settle(null);
      });
      socket.once('unexpected-response', (_request, response) => {
        const status = response.statusCode ?? 0;
        socket.terminate();
        const retryAfter = Number(response.headers['retry-after']);
        if (status === 401 || status === 403) settle({ kind: 'failed', reason: `hub refused the token (${status})` });
        else if (status === 429 || status === 503) {
          settle({ kind: 'failed', reason: `hub refused the stream (${status})`, retryAfterMs: retryAfterMs(retryAfter || undefined) });
        } else settle({ kind: 'no-stream', reason: `the hub answered the stream's upgrade with ${status}` });
      });
      socket.on('error', (error) => {
        // before it opened: no stream here (a hub from before it, or a proxy that does not pass upgrades), or no hub
        settle({ kind: 'no-stream', reason: `the stream did not open: ${(error as { code?: string }).code ?? error.message}` });
      });
      socket.on('message', (data) => {
        if (this.socket !== socket) return;
        let answer: AgentStreamAnswer;
        try {
          answer = JSON.parse(String(data)) as AgentStreamAnswer;
        } catch {
          // not the hub's answer: what became of the report is unknown, so it is sent again, on a new stream
          socket.terminate();
          return this.waiting?.({ kind: 'failed', reason: 'hub answered with something not JSON on the stream' });
        }
        this.waiting?.(outcomeOf(answer));
      });
      socket.on('close', (code, reason) => {
        settle({ kind: 'no-stream', reason: `the stream closed before it opened (${code})` });
        // an older socket's late close is not this one's
        if (this.socket !== socket) return;
        this.socket = null;
        this.waiting?.({ kind: 'failed', reason: `hub closed the stream (${code}: ${String(reason) || 'no reason given'})` });
      });
    });
  }
}

/** A stream's answer as the outcome a POST's response would have been. */
function outcomeOf(answer: AgentStreamAnswer): Outcome {
  if (answer.status === 200) return { kind: 'delivered', reply: answer.reply };
  const message = 'message' in answer ? answer.message : 'no message';
  return refusalOf(answer.status, message, 'retryAfterS' in answer ? retryAfterMs(answer.retryAfterS) : undefined);
}

/** What a refusal of the hub's means, POSTed or on the stream: its status, its message and when to try again. */
export function refusalOf(status: number, message: string, retryAfter: number | undefined): Outcome {
  if (status === 400) return { kind: 'refused', message };
  if (status === 401 || status === 403) return { kind: 'failed', reason: `hub refused the token (${status}): ${message}` };
  // a 429, and the hub's 503 while its database restarts, say when to come back
  if (status === 429) return { kind: 'failed', reason: `hub is limiting the reports (429): ${message}`, retryAfterMs: retryAfter };
  return { kind: 'failed', reason: `hub answered ${status}: ${message}`, retryAfterMs: retryAfter };
}

/** The stream's address for a hub's base address (http → ws, https → wss). */
export const streamUrlOf = (hubUrl: string) => hubUrl.replace(/^http/, 'ws') + AGENT_STREAM_PATH;
