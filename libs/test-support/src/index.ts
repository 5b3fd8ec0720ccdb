export * from './dom';
import { liveConnection } from '@cbh/api-client';
import type { AuthUser, BreakerConfigView, BreakerStateName, BreakerStats, JournalEntry, ServerMessage } from '@cbh/contracts';

type Handler = (body: unknown, url?: URL) => unknown;
export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
}

/**
 * Replaces fetch with an API answering from a table of 'METHOD /api/path' → JSON (or a function of the request
 * body, parsed from JSON or a YAML text as sent, and the URL with its query, returning JSON or a Response). Anything
 * else is a 404. Every call is recorded.
 */
export function fakeApi(routes: Record<string, unknown>) {
  const calls: RecordedCall[] = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const url = new URL(request.url);
    const text = request.method === 'GET' ? '' : await request.text();
    // a YAML body (a configuration document) is kept as its text; every other body the site sends is JSON
    const yaml = request.headers.get('content-type')?.includes('yaml');
    const body = text ? (yaml ? text : JSON.parse(text)) : undefined;
    calls.push({ method: request.method, path: url.pathname + url.search, body });
    const route = routes[`${request.method} ${url.pathname}`];
    if (route === undefined)
      return Response.json({ statusCode: 404, error: 'Not Found', message: `no route ${url.pathname}` }, { status: 404 });
    const result = typeof route === 'function' ? await (route as Handler)(body, url) : route;
    return result instanceof Response ? result : Response.json(result);
  }) as typeof fetch;
  return { calls, callsTo: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path) };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
};

/** A fakeApi route answering with the API's error body (`{ statusCode, error, message }`) and that status. */
export function apiError(statusCode: number, message: string): Handler {
  return () => Response.json({ statusCode, error: STATUS_TEXT[statusCode] ?? 'Error', message }, { status: statusCode });
}

class FakeSocket {
  static latest: FakeSocket | null = null;
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  constructor() {
    FakeSocket.latest = this;
    queueMicrotask(() => this.onopen?.());
  }
  close() {
    this.onclose?.();
  }
}

/** Runs the shared live connection over a fake socket; `emit` delivers a server message to every subscriber. */
export function fakeLive() {
  (globalThis as { WebSocket: unknown }).WebSocket = FakeSocket;
  liveConnection.start();
  return {
    emit: (message: ServerMessage) => FakeSocket.latest?.onmessage?.({ data: JSON.stringify(message) }),
    stop: () => liveConnection.stop(),
  };
}

/** One breaker's figures as /api/metrics/latest reports them: all zero and CLOSED unless told otherwise. */
export function breakerStats(overrides: Partial<BreakerStats> = {}): BreakerStats {
  return {
    configId: 1,
    state: 'CLOSED',
    override: 'none',
    lastTransitionAt: null,
    successCount: 0,
    failureCount: 0,
    timeoutCount: 0,
    shortCircuitedCount: 0,
    bulkheadRejectedCount: 0,
    errorPercentage: 0,
    requestsPerSecond: 0,
    latency: { mean: 0, p50: 0, p90: 0, p99: 0, max: 0 },
    replicas: { open: 0, total: 1 },
    ...overrides,
  };
}

/** A breaker's configuration as GET /api/circuit-breakers lists it: a CLOSED simple breaker with the sliders' defaults unless told otherwise. */
export function breakerConfig(overrides: Partial<BreakerConfigView> = {}): BreakerConfigView {
  return {
    id: 1,
    name: 'Payments',
    type: 'simple',
    failureThreshold: 5,
    timeout: 30_000,
    recoveryTime: 60_000,
    successThreshold: 3,
    maxConcurrentCalls: null,
    maxQueue: null,
    minimumCalls: null,
    slowCallDuration: null,
    state: 'CLOSED',
    override: 'none',
    version: 0,
    source: 'hub',
    service: null,
    library: null,
    libraryType: null,
    librarySettings: null,
    createdAt: '2026-05-01T10:00:00.000Z',
    updatedAt: '2026-05-01T10:00:00.000Z',
    ...overrides,
  };
}

/** A journal row of breaker 5, `afterMs` after 2026-03-02 09:00 UTC, on one of two replicas by the id's parity. */
export function journalEntry(id: number, from: BreakerStateName, to: BreakerStateName, reason: string, afterMs: number): JournalEntry {
  return {
    id,
    configId: 5,
    from,
    to,
    reason,
    at: new Date(Date.parse('2026-03-02T09:00:00.000Z') + afterMs).toISOString(),
    instanceId: id % 2 ? '3f2a9c1e-0000-4000-8000-000000000001' : '7b00d4aa-0000-4000-8000-000000000002',
  };
}

/** A signed-in account as GET /api/auth/user answers it: its first name taken from the e-mail, no last name or picture, no elevation. */
export function authUser(fields: Pick<AuthUser, 'email' | 'role' | 'permissions'> & Partial<AuthUser>): AuthUser {
  const name = fields.email.split('@')[0]!;
  return {
    id: name,
    firstName: name.charAt(0).toUpperCase() + name.slice(1),
    lastName: null,
    profileImageUrl: null,
    canElevate: false,
    ...fields,
  };
}
