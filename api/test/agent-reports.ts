import type { AgentBreakerReport, AgentReport } from '@cbh/contracts';

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
