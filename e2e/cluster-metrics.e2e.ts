import { expect, test } from './support/test';
import { replicasForTheseTests, startReplica, type Site } from './support/server';
import { apiSignIn, createBreaker, breakerBehindChaos, siteApi } from './support/site-api';

/*
 * Two more API processes of the production build on the site's database (so three replicas in all): every replica
 * reports the same cluster-wide figures, exactly the sum of the calls made through each, and a replica that stops
 * drops out of the sums within 5 s.
 */
const replicas = replicasForTheseTests('first', 'second');

/** Breakers the tests made, deleted after each so that later files find the seeded breakers alone. */
const made: { site: Site; cookie: string; id: number }[] = [];
test.afterEach(async () => {
  for (const { site, cookie, id } of made.splice(0))
    await siteApi(site, cookie, `/api/circuit-breakers/${id}`, 'DELETE').catch(() => undefined);
});

interface Stats {
  configId: number;
  state: string;
  override: string;
  successCount: number;
  failureCount: number;
  replicas: { open: number; total: number };
}
const statsOn = async (site: Site, cookie: string, configId: number): Promise<Stats | undefined> => {
  const { stats } = await (await siteApi(site, cookie, '/api/metrics/latest')).json();
  return stats.find((s: Stats) => s.configId === configId);
};
const instanceOf = async (site: Site): Promise<string> => (await (await fetch(`${site.url}/api/health`)).json()).instance;

test('a breaker tripped on one replica is journalled once, though every replica follows it', async () => {
  test.setTimeout(60_000);
  const cookie = await apiSignIn(replicas.first);
  const { breaker, service } = await breakerBehindChaos(
    replicas.first,
    cookie,
    'Journalled once',
    { failureThreshold: 2, timeout: 5_000 },
    100,
  );
  made.push({ site: replicas.first, cookie, id: breaker.id });
  await expect.poll(async () => (await statsOn(replicas.second, cookie, breaker.id))?.configId).toBe(breaker.id);
  for (let i = 0; i < 2; i++) await siteApi(replicas.first, cookie, `/api/services/${service.id}/test`, 'POST');
  // the second replica follows: open at once, half-open when the first replica's open period ends
  await expect.poll(async () => (await statsOn(replicas.second, cookie, breaker.id))?.replicas.open).toBeGreaterThanOrEqual(2);
  await expect.poll(async () => (await statsOn(replicas.second, cookie, breaker.id))?.state, { timeout: 10_000 }).toBe('HALF_OPEN');
  // the move is journalled beside the state the replicas show, so its row may follow the state by a moment
  const journal = async () =>
    (await (await siteApi(replicas.second, cookie, `/api/circuit-breakers/${breaker.id}/transitions`)).json()).transitions;
  await expect.poll(async () => (await journal()).length).toBeGreaterThanOrEqual(2);
  // and a second replica's copy of either, were it written, would come about as late: half a second for it to show
  await new Promise((resolve) => setTimeout(resolve, 500));
  const transitions = await journal();
  const firstId = await instanceOf(replicas.first);
  expect(
    transitions.map((t: { from: string; to: string; reason: string; instanceId: string }) => [
      `${t.from}->${t.to}: ${t.reason}`,
      t.instanceId,
    ]),
  ).toEqual([
    ['OPEN->HALF_OPEN: open period of 5 s elapsed', firstId],
    ['CLOSED->OPEN: 2 consecutive failures', firstId],
  ]);
});

test('every replica reports the sum of the calls made through each, and a stopped replica drops out within 5 s', async () => {
  test.setTimeout(120_000);
  const cookie = await apiSignIn(replicas.first);
  const { breaker, service } = await breakerBehindChaos(replicas.first, cookie, 'Summed', { failureThreshold: 20, timeout: 60_000 }, 0);
  made.push({ site: replicas.first, cookie, id: breaker.id });
  // the second replica learns of the new breaker from the fan-out
  await expect.poll(async () => (await statsOn(replicas.second, cookie, breaker.id))?.configId).toBe(breaker.id);

  // 7 calls through the first replica, 5 through the second, all within the 10 s window
  const calls = (site: Site, n: number) =>
    Promise.all(Array.from({ length: n }, () => siteApi(site, cookie, `/api/services/${service.id}/test`, 'POST')));
  await Promise.all([calls(replicas.first, 7), calls(replicas.second, 5)]);

  // both replicas (and the site's own) answer with the same, exact total
  for (const site of [replicas.first, replicas.second]) {
    await expect.poll(async () => (await statsOn(site, cookie, breaker.id))?.successCount, { timeout: 4000 }).toBe(12);
  }
  const replicasBefore = (await statsOn(replicas.first, cookie, breaker.id))!.replicas.total;
  expect(replicasBefore).toBeGreaterThanOrEqual(2);
  expect((await statsOn(replicas.second, cookie, breaker.id))!.replicas.total).toBe(replicasBefore);

  // /metrics: each replica writes its own engine's series (Prometheus sums them), and the cluster's view under names of its own
  const series = (text: string, metric: string) =>
    Number(new RegExp(`resilience4j_circuitbreaker_${metric}\\{name="Summed",kind="successful"\\} (\\d+)`).exec(text)?.[1]);
  const scrape = async (site: Site) => (await siteApi(site, cookie, '/metrics')).text();
  const [firstScrape, secondScrape] = await Promise.all([scrape(replicas.first), scrape(replicas.second)]);
  expect([series(firstScrape, 'calls_total'), series(secondScrape, 'calls_total')]).toEqual([7, 5]);
  expect([series(firstScrape, 'calls_seconds_count'), series(secondScrape, 'calls_seconds_count')]).toEqual([7, 5]);
  expect([series(firstScrape, 'buffered_calls'), series(secondScrape, 'buffered_calls')]).toEqual([7, 5]);
  expect(secondScrape).toContain('cbh_cluster_circuitbreaker_calls_per_second{name="Summed"} 1.2\n');

  // the second replica stops: within 5 s the first no longer counts it, nor its calls
  const stoppedAt = Date.now();
  await replicas.second.stop('SIGKILL');
  await expect
    .poll(
      async () => {
        const stats = await statsOn(replicas.first, cookie, breaker.id);
        return [stats?.successCount, stats?.replicas.total];
      },
      { timeout: 5000, intervals: [200] },
    )
    .toEqual([7, replicasBefore - 1]);
  expect(Date.now() - stoppedAt).toBeLessThan(5000);
});

test('a manual control on one replica acts on every replica and is journalled once, with who did it', async () => {
  test.setTimeout(60_000);
  const other = await startReplica();
  try {
    const cookie = await apiSignIn(replicas.first);
    const breaker = await createBreaker(replicas.first, cookie, 'Controlled');
    made.push({ site: replicas.first, cookie, id: breaker.id });
    const viewOn = async (site: Site) =>
      ((await (await siteApi(site, cookie, '/api/circuit-breakers')).json()) as { id: number; state: string; override: string }[]).find(
        (b) => b.id === breaker.id,
      );
    await expect.poll(async () => (await viewOn(other))?.state).toBe('CLOSED');

    expect((await siteApi(replicas.first, cookie, `/api/circuit-breakers/${breaker.id}/force-open`, 'POST')).status).toBe(200);
    await expect.poll(async () => await viewOn(other)).toMatchObject({ state: 'OPEN', override: 'forced-open' });
    await expect.poll(async () => (await statsOn(other, cookie, breaker.id))?.replicas.open).toBeGreaterThanOrEqual(2);

    expect((await siteApi(other, cookie, `/api/circuit-breakers/${breaker.id}/reset`, 'POST')).status).toBe(200);
    await expect.poll(async () => await viewOn(replicas.first)).toMatchObject({ state: 'CLOSED', override: 'none' });

    // the journal is written beside the answer, not before it
    const journal = async () => {
      const { transitions } = await (await siteApi(replicas.first, cookie, `/api/circuit-breakers/${breaker.id}/transitions`)).json();
      return transitions.map((t: { from: string; to: string; reason: string }) => `${t.from}->${t.to}: ${t.reason}`);
    };
    // named by the bootstrap super admin's name, not its e-mail address
    await expect.poll(journal).toEqual(['OPEN->CLOSED: reset by Admin', 'CLOSED->OPEN: forced open by Admin']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await journal()).toHaveLength(2);
  } finally {
    await other.stop();
  }
});
