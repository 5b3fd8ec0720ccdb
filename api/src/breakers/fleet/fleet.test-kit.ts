import type { AgentReport, AgentReportReply, BreakerConfigView, BreakerStats } from '@cbh/contracts';
import { eventually, twoReplicasForThisFile } from '../../../test/test-api';
import { agentBreaker, agentReport, sendAgentReport, serviceToken } from '../../../test/agent-reports';

/**
 * The two replicas of a fleet spec file on one database, with the helpers its tests share: a report may reach
 * either, and every replica must show the same. A token may send 40 requests a minute (the rate-limit test counts to
 * it), and webhooks may go to the receiver on loopback.
 */
export function fleetApiForThisFile() {
  const spec = twoReplicasForThisFile({ TOKEN_RATE_LIMIT: '40', ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' });

  const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
  const get = <T>(path: string, replica = spec.api) => json<T>(replica.call(path, { cookie: spec.admin }));
  const post = (path: string, body?: unknown, replica = spec.api) => replica.call(path, { method: 'POST', body, cookie: spec.admin });
  const sendReport = (token: string, report: unknown, replica = spec.api) => sendAgentReport(replica.baseUrl, token, report);

  return {
    spec,
    get,
    post,
    sendReport,
    breaker: agentBreaker,
    report: agentReport,

    /** A service account named `service` and one access token of it. */
    serviceToken: (service: string) => serviceToken(spec.api, spec.admin, service),

    /** The hub's reply to a report it took. */
    async reply(token: string, body: AgentReport, replica = spec.api): Promise<AgentReportReply> {
      const response = await sendReport(token, body, replica);
      expect(response.status).toBe(200);
      return (await response.json()) as AgentReportReply;
    },

    async breakerNamed(service: string, name: string, replica = spec.api): Promise<BreakerConfigView> {
      const list = await get<BreakerConfigView[]>(`/api/circuit-breakers?source=agent&service=${service}`, replica);
      return list.find((item) => item.name === name)!;
    },

    /**
     * What a report changes reaches every replica through the database: its write, the merger's read every 500 ms, the
     * other replica's refresh. These tests check that it gets there and what it says; how fast it gets there is
     * bench:fleet's to measure (the wall's p99), so a busy machine that delays a few cycles does not fail them.
     */
    carried: (check: () => Promise<boolean>) => eventually(check, 8000),

    statsOf: async (configId: number, replica = spec.api) =>
      (await get<{ stats: BreakerStats[] }>('/api/metrics/latest', replica)).stats.find((stats) => stats.configId === configId),
  };
}
