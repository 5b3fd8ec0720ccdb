import { AGENT_REPORT_EVERY_MS, type BreakerConfigView, type BreakerStats } from '@cbh/contracts';
import { agentBreaker, agentReport, sendAgentReport, serviceToken } from '../../../test/agent-reports';
import { apiForThisFile, eventually, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';

// one replica: the merged figures are written for the others only while another replica runs
const SECRET = { SESSION_SECRET: 'a-session-secret-of-the-replicas-of-this-file' };
const spec = apiForThisFile(SECRET);

const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
const successesOn = async (replica: TestApi, cookie: string, id: number) =>
  (await json<{ stats: BreakerStats[] }>(replica.call('/api/metrics/latest', { cookie }))).stats.find((stats) => stats.configId === id)
    ?.successCount;

it('writes no figures while it runs alone, and all of them at once when a second replica starts to read them', async () => {
  const token = await serviceToken(spec.api, spec.admin, 'lonely');
  expect(
    (await sendAgentReport(spec.api.baseUrl, token, agentReport('lonely', 'l-1', [agentBreaker('db', { successes: 9 })]))).status,
  ).toBe(200);
  const [breaker] = await json<BreakerConfigView[]>(
    spec.api.call('/api/circuit-breakers?source=agent&service=lonely', { cookie: spec.admin }),
  );
  const id = breaker!.id;
  expect(await eventually(async () => (await successesOn(spec.api, spec.admin, id)) === 9, 5000)).toBe(true);
  const written = async () => (await spec.api.sql('SELECT 1 FROM fleet_figures WHERE config_id = $1', [id])).length;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(await written()).toBe(0);

  // the instance keeps reporting, with no calls, as an agent does every second: silent for three periods it would
  // leave the sums, and a second replica's start can take longer than that on a busy machine (its 9 calls stay in
  // the 10-second window meanwhile)
  const reporting = setInterval(
    () => void sendAgentReport(spec.api.baseUrl, token, agentReport('lonely', 'l-1', [agentBreaker('db')])).catch(() => undefined),
    AGENT_REPORT_EVERY_MS,
  );
  const second = await startTestApi({ ...SECRET, DATABASE_URL: spec.api.databaseUrl });
  try {
    const cookie = await signIn(second.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    expect(await eventually(async () => (await successesOn(second, cookie, id)) === 9, 3000)).toBe(true);
    expect(await written()).toBe(1);
  } finally {
    clearInterval(reporting);
    await second.stop();
  }
});
