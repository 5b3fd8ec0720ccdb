import type { AgentReportReply, BreakerConfigView, BreakerInstancesPage } from '@cbh/contracts';
import { agentBreaker, agentReport, sendAgentReport, serviceToken } from '../../../test/agent-reports';
import { apiForThisFile, eventually } from '../../../test/test-api';

// a deployment that asks its agents for a report every 2 s rather than every second
const spec = apiForThisFile({ AGENT_REPORT_EVERY_MS: '2000' });

const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;

it('asks agents for the period AGENT_REPORT_EVERY_MS sets, and counts an instance stale after three of those periods', async () => {
  const token = await serviceToken(spec.api, spec.admin, 'slow-reporter');
  const reportedAt = Date.now(); // no later than the hub's own time of the report
  const sent = await sendAgentReport(spec.api.baseUrl, token, agentReport('slow-reporter', 's-1', [agentBreaker('db', { successes: 7 })]));
  expect(sent.status).toBe(200);
  expect(((await sent.json()) as AgentReportReply).reportEveryMs).toBe(2000);

  const [breaker] = await json<BreakerConfigView[]>(
    spec.api.call('/api/circuit-breakers?source=agent&service=slow-reporter', { cookie: spec.admin }),
  );
  const instances = () =>
    json<BreakerInstancesPage>(spec.api.call(`/api/circuit-breakers/${breaker!.id}/instances`, { cookie: spec.admin }));
  expect(await eventually(async () => (await instances()).merged?.successCount === 7, 5000)).toBe(true);

  // 4 s after its report (three of the default periods, two of this deployment's) the instance still counts
  await new Promise((resolve) => setTimeout(resolve, reportedAt + 4000 - Date.now()));
  const quiet = await instances();
  expect(quiet.instances.map((instance) => [instance.instance, instance.stale])).toEqual([['s-1', false]]);
  expect(quiet.merged).toMatchObject({ successCount: 7, instances: { total: 1, stale: 0 } });

  // past three of its periods (6 s) it is stale and out of the sums
  expect(await eventually(async () => (await instances()).merged?.instances?.stale === 1, 6000)).toBe(true);
  expect(Date.now() - reportedAt).toBeGreaterThan(6000);
  expect((await instances()).instances).toMatchObject([{ instance: 's-1', stale: true }]);
});
