import type { AgentBreakerReport, AgentReport } from '@cbh/contracts';
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
