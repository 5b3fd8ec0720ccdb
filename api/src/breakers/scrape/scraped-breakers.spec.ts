import { AGENT_PROTOCOL_LIMITS, type BreakerConfigView, type ScrapeTargetView } from '@cbh/contracts';
import { startResilience4jEndpoint, type Resilience4jEndpoint } from '../../../test/resilience4j-endpoint';
import { eventually, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';

/*
 * A scrape target's breakers are its service's: held to the limit an agent's service has across all its scrapes, and
 * those it stopped exposing leave after 3 good scrapes and an hour (scraped-breakers.ts).
 */

let api: TestApi;
let admin: string;
const endpoints: Resilience4jEndpoint[] = [];

beforeAll(async () => {
  api = await startTestApi({ ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' });
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => {
  await api?.stop();
  await Promise.all(endpoints.map((endpoint) => endpoint.close()));
});

const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
const call = (path: string, method = 'GET', body?: unknown) => api.call(path, { method, body, cookie: admin });
const scrapedNames = async (service: string) =>
  (await json<BreakerConfigView[]>(call(`/api/circuit-breakers?source=scrape&service=${service}`))).map((breaker) => breaker.name);
const countOf = async (service: string) =>
  (await api.sql("SELECT count(*)::int AS n FROM circuit_breaker_configs WHERE source = 'scrape' AND service = $1", [service]))[0]
    .n as number;

/** A target scraped only when a test asks (its interval is an hour), on an endpoint of its own. */
async function targetOn(name: string, breakers: string[]): Promise<{ target: ScrapeTargetView; endpoint: Resilience4jEndpoint }> {
  const endpoint = await startResilience4jEndpoint({ breakers: breakers.map((breaker) => ({ name: breaker })) });
  endpoints.push(endpoint);
  const created = await call('/api/scrape-targets', 'POST', { name, url: endpoint.url, intervalSeconds: 3600 });
  expect(created.status).toBe(201);
  return { target: await created.json(), endpoint };
}

/** Makes the target due now and waits for that scrape to finish: its lease given back and its next one an interval away. */
async function scrapeNow(target: ScrapeTargetView): Promise<ScrapeTargetView> {
  await api.sql('UPDATE scrape_targets SET next_run_at = now() WHERE id = $1', [target.id]);
  const done = await eventually(async () => {
    const [row] = await api.sql('SELECT next_run_at > now() AS waiting, lease_owner FROM scrape_targets WHERE id = $1', [target.id]);
    return row.waiting && row.lease_owner === null;
  }, 20_000);
  expect(done).toBe(true);
  return json<ScrapeTargetView>(call(`/api/scrape-targets/${target.id}`));
}

it('adds no breaker past the per-service limit however many names the scrapes rotate through, and says so in the last error', async () => {
  const limit = AGENT_PROTOCOL_LIMITS.breakersPerService;
  const perScrape = 500;
  const { target, endpoint } = await targetOn('rotating', []);
  let names: string[] = [];
  let view = target;
  for (let round = 0; round <= limit / perScrape; round++) {
    for (const name of names) endpoint.removeBreaker(name);
    names = Array.from({ length: perScrape }, (_, index) => `round${round}-${String(index).padStart(3, '0')}`);
    for (const name of names) endpoint.setBreaker(name);
    view = await scrapeNow(target);
  }
  expect(await countOf('rotating')).toBe(limit);
  expect(view.breakers).toBe(0);
  expect(view.lastError).toBe(
    `breaker limit reached: service rotating has ${limit} breakers on the hub, the most one service may; ${perScrape} new breakers left out (round4-000, round4-001, round4-002, round4-003, round4-004, …). Breakers the target no longer exposes leave after 3 scrapes and 60 minutes, or delete some on the hub`,
  );

  // a breaker deleted on the hub makes room for one more
  const [first] = await api.sql(
    "SELECT id FROM circuit_breaker_configs WHERE source = 'scrape' AND service = 'rotating' ORDER BY id LIMIT 1",
  );
  expect((await call(`/api/circuit-breakers/${first.id}`, 'DELETE')).status).toBe(204);
  view = await scrapeNow(target);
  expect(await countOf('rotating')).toBe(limit);
  expect(view.breakers).toBe(1);
  expect(view.lastError).toContain(`${perScrape - 1} new breakers left out (round4-001,`);
});

it('removes a breaker the target stopped exposing once 3 good scrapes in a row and an hour missed it', async () => {
  const { target, endpoint } = await targetOn('ageing', ['inventoryService', 'paymentService']);
  await scrapeNow(target);
  expect(await scrapedNames('ageing')).toEqual(['inventoryService', 'paymentService']);

  endpoint.removeBreaker('paymentService');
  for (let scrape = 0; scrape < 3; scrape++) expect(await scrapeNow(target)).toMatchObject({ lastError: null, breakers: 1 });
  // three scrapes missed it, within the hour: it stays (a breaker resilience4j registers on its first call may be back)
  expect(await scrapedNames('ageing')).toEqual(['inventoryService', 'paymentService']);

  // an hour since the first scrape that missed it
  await api.sql(
    `UPDATE scrape_targets SET absent = jsonb_set(absent, '{paymentservice,since}', to_jsonb((extract(epoch FROM now()) * 1000)::bigint - 3600000))
     WHERE id = $1`,
    [target.id],
  );
  // a failed scrape says nothing of what the target exposes
  endpoint.respondWith({ status: 503 });
  expect((await scrapeNow(target)).lastError).toMatch(/^HTTP 503/);
  expect(await scrapedNames('ageing')).toEqual(['inventoryService', 'paymentService']);

  endpoint.respondWith(null);
  expect(await scrapeNow(target)).toMatchObject({ lastError: null, breakers: 1 });
  expect(await scrapedNames('ageing')).toEqual(['inventoryService']);
  const audit = await api.sql("SELECT target_id, before FROM audit_entries WHERE action = 'scrape-target.breakers-aged-out'");
  expect(audit).toEqual([{ target_id: String(target.id), before: { breakers: ['paymentService'] } }]);

  // exposed again, it comes back as a breaker of the service, and is no longer counted as missing
  endpoint.setBreaker('paymentService');
  await scrapeNow(target);
  expect(await scrapedNames('ageing')).toEqual(['inventoryService', 'paymentService']);
  expect((await api.sql('SELECT absent FROM scrape_targets WHERE id = $1', [target.id]))[0].absent).toEqual({});
});
