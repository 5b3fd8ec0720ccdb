import WebSocket from 'ws';
import { AGENT_STREAM_PATH, type AgentBreakerReport, type AgentReport, type AgentStreamAnswer } from '@cbh/contracts';
import type { TestApi } from './test-api';

/** One breaker as an opossum agent reports it: closed, its calls of the period all under 10 ms unless `fields` say otherwise. */
export function agentBreaker(
  name: string,
  calls: { successes?: number; failures?: number } = {},
  fields: Partial<AgentBreakerReport> = {},
): AgentBreakerReport {
  const successes = calls.successes ?? 0;
  const failures = calls.failures ?? 0;
  return {
    name,
    library: 'opossum',
    type: 'error-percentage',
    settings: { errorThresholdPercentage: 50, timeout: 3000, resetTimeout: 30000 },
    state: 'CLOSED',
    override: 'none',
    window: {
      successes,
      failures,
      timeouts: 0,
      rejections: 0,
      latencyHistogram: { boundsMs: [10, 100], counts: [successes + failures, 0, 0] },
      longestCallMs: successes + failures > 0 ? 8 : 0,
    },
    transitions: [],
    ...fields,
  };
}

/** A report of one service instance's breakers, sent now. */
export function agentReport(service: string, instance: string, breakers: AgentBreakerReport[]): AgentReport {
  return { version: 1, service, instance, sentAt: new Date().toISOString(), breakers };
}

/** POST /api/agent/reports with a service account's token. */
export function sendAgentReport(baseUrl: string, token: string, report: unknown): Promise<Response> {
  return fetch(`${baseUrl}/api/agent/reports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(report),
  });
}

/** A service account named `service`, made by the admin (`admin`, a session cookie), and an access token of it for its agents. */
export async function serviceToken(api: Pick<TestApi, 'call'>, admin: string, service: string): Promise<string> {
  const post = (path: string, body: unknown) => api.call(path, { method: 'POST', body, cookie: admin });
  const account = await post('/api/service-accounts', { name: service });
  expect(account.status).toBe(201);
  const made = await post(`/api/service-accounts/${((await account.json()) as { id: string }).id}/tokens`, {
    name: 'agent',
    expiresInDays: 30,
  });
  expect(made.status).toBe(201);
  return ((await made.json()) as { token: string }).token;
}

/** An agent's stream (AGENT_STREAM_PATH) opened with `token`: each report sent is answered in order. */
export interface AgentStreamClient {
  socket: WebSocket;
  /** Sends a report (or any frame, as a string) and resolves with the hub's answer to it. */
  send(report: unknown): Promise<AgentStreamAnswer>;
  /** The close code and reason, once the hub or the client closes the stream. */
  closed: Promise<{ code: number; reason: string }>;
}

const streamUrl = (baseUrl: string) => `${baseUrl.replace(/^http/, 'ws')}${AGENT_STREAM_PATH}`;

export async function openAgentStream(baseUrl: string, token: string): Promise<AgentStreamClient> {
  const socket = new WebSocket(streamUrl(baseUrl), { headers: { authorization: `Bearer ${token}` } });
  const answers: ((answer: AgentStreamAnswer) => void)[] = [];
  socket.on('message', (data) => answers.shift()?.(JSON.parse(String(data)) as AgentStreamAnswer));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    closed,
    send: (report) =>
      new Promise((resolve) => {
        answers.push(resolve);
        socket.send(typeof report === 'string' ? report : JSON.stringify(report));
      }),
  };
}

/** The HTTP status an upgrade to the agents' stream is refused with (101 when it is not). */
export function streamUpgradeStatus(baseUrl: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(streamUrl(baseUrl), { headers });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('open', () => {
      resolve(101);
      socket.close();
    });
    socket.once('error', (error) => (error.message.startsWith('Unexpected server response') ? undefined : reject(error)));
  });
}
