import { expect, test } from './support/test';
import WebSocket from 'ws';
import { replicasForTheseTests, type Site } from './support/server';
import { apiSignIn, createBreaker, siteApi } from './support/site-api';

const replicas = replicasForTheseTests('first', 'second');

test('two API processes on one database: results and transitions reach both, and a breaker tripped on one is open on both', async () => {
  test.setTimeout(120_000);
  const cookie = await apiSignIn(replicas.first);

  // A breaker of our own, and a service behind it that always fails.
  const breaker = await createBreaker(replicas.first, cookie, 'Replicated', { failureThreshold: 2, timeout: 60_000 });
  const service = await (
    await siteApi(replicas.first, cookie, '/api/services', 'POST', {
      name: 'Always down',
      endpoint: '/api/chaos/1',
      failureRate: 100,
      averageResponseTime: 1,
      circuitBreakerConfigId: breaker.id,
    })
  ).json();

  // A client of the second process hears what happens on the first.
  const socket = new WebSocket(`${replicas.second.url.replace('http', 'ws')}/ws`, { headers: { cookie } });
  const received: { type: string; data: Record<string, unknown> }[] = [];
  socket.on('message', (data) => received.push(JSON.parse(String(data))));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });

  await siteApi(replicas.first, cookie, `/api/services/${service.id}`, 'PATCH', { endpoint: `/api/chaos/${service.id}` });
  for (let i = 0; i < 2; i++) await siteApi(replicas.first, cookie, `/api/services/${service.id}/test`, 'POST');

  await expect.poll(() => received.filter((m) => m.type === 'testResult' && m.data.serviceId === service.id).length).toBe(2);
  await expect
    .poll(() => received.some((m) => m.type === 'stateChange' && m.data.configId === breaker.id && m.data.to === 'OPEN'))
    .toBe(true);
  expect(received.some((m) => m.type === 'serviceUpdated' && m.data.serviceId === service.id)).toBe(true);

  const stateOn = async (site: Site) => {
    const { stats } = await (await siteApi(site, cookie, '/api/metrics/latest')).json();
    return stats.find((s: { configId: number }) => s.configId === breaker.id);
  };
  await expect.poll(async () => (await stateOn(replicas.second))?.state).toBe('OPEN');
  expect((await stateOn(replicas.first)).state).toBe('OPEN');

  // The second process now refuses calls fast too, without calling the service.
  const refused = await (await siteApi(replicas.second, cookie, `/api/services/${service.id}/test`, 'POST')).json();
  expect(refused).toMatchObject({ success: false, error: 'Circuit breaker is OPEN', responseTime: 0 });

  // Each replica knows both hold the breaker open.
  // (the site the other browser tests use shares this database too: every reporting replica holds it open)
  await expect
    .poll(
      async () => {
        const { open, total } = (await stateOn(replicas.second)).replicas;
        return open === total && total >= 2;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  socket.close();
});
