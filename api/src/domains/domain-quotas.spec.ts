import { DEMO_PASSWORD, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../test/test-api';

// A site of its own, with quotas small enough to reach: 3 domains an account, 5 in all.
let api: TestApi;
/** The bootstrap super admin, the demo admin and the elevation account (an admin): three holders of domain_management. */
let accounts: string[];
beforeAll(async () => {
  api = await startTestApi({ DOMAINS_PER_USER: '3', DOMAINS_TOTAL: '5' });
  const signIns = [
    TEST_ADMIN,
    { email: 'admin@demo.example.com', password: DEMO_PASSWORD },
    { email: 'elevate@example.com', password: DEMO_PASSWORD },
  ];
  accounts = [];
  for (const account of signIns) accounts.push(await signIn(api.baseUrl, account.email, account.password));
});
afterAll(async () => {
  await api.stop();
});

const add = (cookie: string, domain: string) => api.call('/api/domains', { method: 'POST', cookie, body: { domain } });
const domainCount = async (): Promise<number> => (await api.sql('SELECT count(*)::int AS n FROM domains'))[0].n;

it('refuses an account one domain over DOMAINS_PER_USER with a 429 naming the limit, and adds nothing', async () => {
  const [root] = accounts;
  for (const name of ['a', 'b', 'c']) expect((await add(root!, `${name}.quota.example.test`)).status).toBe(201);
  const fourth = await add(root!, 'd.quota.example.test');
  expect(fourth.status).toBe(429);
  expect(await fourth.json()).toEqual({
    statusCode: 429,
    error: 'Too Many Requests',
    message: 'You already monitor 3 domains, the most one account may add (DOMAINS_PER_USER); delete one first',
  });
  expect(await domainCount()).toBe(3);
});

it('holds DOMAINS_TOTAL when two accounts add at once, and frees a place when a domain is deleted', async () => {
  // the first account holds 3 of the 5; the other two ask for 3 each at the same moment
  const [root, ada, eli] = accounts;
  const answers = await Promise.all(
    [ada!, eli!].flatMap((cookie, who) => [1, 2, 3].map((i) => add(cookie, `${who}-${i}.race.example.test`))),
  );
  expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 429, 429, 429, 429]);
  for (const answer of answers.filter((answer) => answer.status === 429)) {
    expect((await answer.json()).message).toBe('5 domains are monitored, the most the site monitors (DOMAINS_TOTAL); delete one first');
  }
  expect(await domainCount()).toBe(5);

  const domains: { id: number; domain: string }[] = await (await api.call('/api/domains', { cookie: root })).json();
  const first = domains.find((domain) => domain.domain === 'a.quota.example.test')!;
  expect((await api.call(`/api/domains/${first.id}`, { method: 'DELETE', cookie: root })).status).toBe(204);
  expect((await add(root!, 'after-delete.example.test')).status).toBe(201);
});
