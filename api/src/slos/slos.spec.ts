import type { AgentReport, BreakerConfigView, SloDetailView, SloView } from '@cbh/contracts';
import { agentBreaker, agentReport, sendAgentReport, serviceToken } from '../../test/agent-reports';
import { apiForThisFile, DEMO_PASSWORD, eventually, signIn } from '../../test/test-api';
import { SloCounter } from './slo-counter.service';
import { simpleBreaker } from '../../test/breaker-bodies';

const spec = apiForThisFile();
const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
const call = (path: string, method = 'GET', body?: unknown, cookie = spec.admin) => spec.api.call(path, { method, body, cookie });
const minutesAgo = (minutes: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - minutes * 60_000);
/** One counting round, now, as the holder of slos.counts runs it every 15 s. */
const countRound = () => spec.api.app.get(SloCounter).countAndJudge(new Date());

async function hubBreaker(name: string): Promise<number> {
  const made = await call('/api/circuit-breakers', 'POST', simpleBreaker(name));
  expect(made.status).toBe(201);
  return (await json<BreakerConfigView>(made)).id;
}

/** What the hub's own engine writes: one replica's counts of one breaker in one second. */
async function calls(
  configId: number,
  at: Date,
  counts: { success?: number; failure?: number; timeout?: number; shortCircuited?: number; rejected?: number },
) {
  await spec.api.sql(
    `INSERT INTO metric_buckets (config_id, second, instance_id, success, failure, timeout, short_circuited, bulkhead_rejected)
     VALUES ($1, $2, gen_random_uuid(), $3, $4, $5, $6, $7)`,
    [configId, at, counts.success ?? 0, counts.failure ?? 0, counts.timeout ?? 0, counts.shortCircuited ?? 0, counts.rejected ?? 0],
  );
}

async function createSlo(body: Record<string, unknown>): Promise<SloView> {
  const made = await call('/api/slos', 'POST', body);
  expect(made.status).toBe(201);
  return json<SloView>(made);
}

const events = () =>
  spec.api.sql(`SELECT type, subject_id, data FROM notification_events WHERE subject_kind = 'slo' ORDER BY id`) as Promise<
    { type: string; subject_id: number; data: Record<string, unknown> }[]
  >;

it('counts refused calls as bad, reads every window from the minutes it covers, and matches hand-computed SLIs and burn rates', async () => {
  const checkout = await hubBreaker('slo-checkout');
  // 1,000 calls a minute ago: 900 served, 50 failed, 20 timed out, 20 short-circuited, 10 turned away by a bulkhead
  await calls(checkout, minutesAgo(1), { success: 900, failure: 50, timeout: 20, shortCircuited: 20, rejected: 10 });
  const slo = await createSlo({
    name: 'Checkout calls',
    target: 99,
    window: '30d',
    indicator: { kind: 'breaker-calls', breakers: [checkout] },
  });
  // refused only: 990 served and 10 short-circuited is 99 %, not 100 %
  const refused = await hubBreaker('slo-refused');
  await calls(refused, minutesAgo(2), { success: 990, shortCircuited: 10 });
  const onlyRefused = await createSlo({
    name: 'Refused',
    target: 95,
    window: '7d',
    indicator: { kind: 'breaker-calls', breakers: [refused] },
  });
  // 40 minutes ago half failed; 2 minutes ago all good: the 5 and 30 minute windows see no bad call, the hour does
  const search = await hubBreaker('slo-search');
  await calls(search, minutesAgo(40), { success: 100, failure: 100 });
  await calls(search, minutesAgo(2), { success: 1000 });
  const windows = await createSlo({
    name: 'Search',
    target: 99.9,
    window: '28d',
    indicator: { kind: 'breaker-calls', breakers: [search] },
  });
  await countRound();

  const got = await json<SloView>(call(`/api/slos/${slo.id}`));
  expect(got.sli).toBeCloseTo(90, 10);
  expect([got.good, got.total]).toEqual([900, 1000]);
  // 10 % bad against the 1 % the target allows: 10 times the budget's pace in every window that holds the minute
  for (const window of ['5m', '30m', '1h', '2h', '6h', '1d', '3d'] as const) expect(got.burnRates[window]).toBeCloseTo(10, 10);
  expect(got.errorBudgetRemaining).toBeCloseTo(-9, 10);
  expect(got.status).toBe('exhausted');

  expect((await json<SloView>(call(`/api/slos/${onlyRefused.id}`))).sli).toBeCloseTo(99, 10);

  const split = await json<SloView>(call(`/api/slos/${windows.id}`));
  expect([split.burnRates['5m'], split.burnRates['30m']]).toEqual([0, 0]);
  // 100 bad of 1,200 in the hour: 8.33 % against 0.1 %
  expect(split.burnRates['1h']).toBeCloseTo(100 / 1200 / 0.001, 8);
  expect(split.burnRates['6h']).toBeCloseTo(100 / 1200 / 0.001, 8);
  expect(split.sli).toBeCloseTo((100 * 1100) / 1200, 10);
  // 6 h and 30 m must both burn past 6 for a page, 1 h and 5 m past 14.4: neither short window burns, so no alert
  expect(split.status).toBe('exhausted');
});

it('raises slo.burn_rate once per severity and slo.budget_exhausted once, then slo.recovered when the burning stops', async () => {
  const payments = await hubBreaker('slo-payments');
  await calls(payments, minutesAgo(1), { success: 900, failure: 100 });
  const slo = await createSlo({ name: 'Payments', target: 99, window: '30d', indicator: { kind: 'breaker-calls', breakers: [payments] } });
  // a rule for the page, to a log channel; its domain filter is not the SLO's business
  const channel = await json<{ id: string }>(call('/api/notification-channels', 'POST', { name: 'SLO log', type: 'log' }));
  const rule = { name: 'SLO pages', events: ['slo.burn_rate'], domains: ['elsewhere.example.test'], channelIds: [channel.id] };
  expect((await call('/api/notification-rules', 'POST', rule)).status).toBe(201);
  const before = (await events()).length;
  await countRound();
  await countRound();
  const raised = (await events()).slice(before).filter((event) => event.subject_id === slo.id);
  // burning 10×: the 6 h/30 m page (> 6) and the 1 d/2 h ticket (> 3); the 1 h/5 m page needs 14.4
  expect(raised.map((event) => [event.type, event.data.severity ?? null, event.data.window ?? null])).toEqual([
    ['slo.burn_rate', 'page', '6h'],
    ['slo.burn_rate', 'ticket', '1d'],
    ['slo.budget_exhausted', null, null],
  ]);
  expect(raised[0]!.data).toMatchObject({
    slo: { id: slo.id, name: 'Payments', target: 99, window: '30d', kind: 'breaker-calls' },
    burnRate: expect.closeTo(10, 8),
    url: expect.stringMatching(new RegExp(`/slos/${slo.id}$`)),
  });
  const delivered = async () =>
    (
      await spec.api.sql(`SELECT status FROM notification_deliveries WHERE event_type = 'slo.burn_rate' AND channel_id = $1 ORDER BY seq`, [
        channel.id,
      ])
    ).map((row: { status: string }) => row.status);
  // the page is delivered; the ticket after it is the same event type about the same SLO within the rule's 5 minutes
  await eventually(async () => (await delivered()).join() === 'delivered,suppressed', 10_000);
  expect(await delivered()).toEqual(['delivered', 'suppressed']);
  const [sent] = await spec.api.sql(
    `SELECT payload FROM notification_deliveries WHERE event_type = 'slo.burn_rate' AND status = 'delivered'`,
  );
  expect(sent.payload.url).toMatch(new RegExp(`/slos/${slo.id}$`));
  // a target of 50 % allows half the calls to fail: 10 % bad burns at 0.2, nothing fires, the budget is back
  expect((await call(`/api/slos/${slo.id}`, 'PATCH', { target: 50 })).status).toBe(200);
  await countRound();
  const after = (await events()).slice(before).filter((event) => event.subject_id === slo.id);
  expect(after.map((event) => event.type)).toEqual(['slo.burn_rate', 'slo.burn_rate', 'slo.budget_exhausted', 'slo.recovered']);
  expect((await json<SloView>(call(`/api/slos/${slo.id}`))).status).toBe('ok');
});

it("counts an agent's breakers by the increase of their counters, and its latency against the threshold", async () => {
  const token = await serviceToken(spec.api, spec.admin, 'ledger');
  // calls under 100 ms and over it
  const report = (successes: number, failures: number, fast: number, slow: number) =>
    agentReport('ledger', 'ledger-1', [
      agentBreaker(
        'postings',
        { successes, failures },
        {
          window: {
            successes,
            failures,
            timeouts: 0,
            rejections: 0,
            latencyHistogram: { boundsMs: [100], counts: [fast, slow] },
            longestCallMs: 400,
          },
        },
      ),
    ]);
  const send = async (body: AgentReport) => expect((await sendAgentReport(spec.api.baseUrl, token, body)).status).toBe(200);
  await send(report(10, 0, 10, 0));
  const calls = await createSlo({
    name: 'Ledger calls',
    target: 99,
    window: '7d',
    indicator: { kind: 'breaker-calls', service: 'ledger' },
  });
  const latency = await createSlo({
    name: 'Ledger latency',
    target: 90,
    window: '7d',
    indicator: { kind: 'breaker-latency', service: 'ledger', thresholdMs: 100 },
  });
  // the first reading only remembers where the counters stand: the 10 calls before it are not counted
  await countRound();
  await send(report(60, 20, 50, 30));
  await countRound();
  const counted = await json<SloView>(call(`/api/slos/${calls.id}`));
  expect([counted.good, counted.total, counted.sli]).toEqual([60, 80, 75]);
  expect(counted.service).toBe('ledger');
  const timed = await json<SloView>(call(`/api/slos/${latency.id}`));
  expect([timed.good, timed.total]).toEqual([50, 80]);
  // the breaker's page lists the SLOs it feeds
  const breaker = (await json<BreakerConfigView[]>(call('/api/circuit-breakers?source=agent&service=ledger')))[0]!;
  expect((await json<SloView[]>(call(`/api/slos?breaker=${breaker.id}`))).map((slo) => slo.name)).toEqual([
    'Ledger calls',
    'Ledger latency',
  ]);
  expect((await json<SloView[]>(call('/api/slos?service=ledger'))).length).toBe(2);
});

it("counts a domain's checks and a remote's loads, and shows the burn-down, top contributors and the month's report", async () => {
  const domain = await json<{ id: number }>(call('/api/domains', 'POST', { domain: 'slo.example.test' }));
  await spec.api.sql('INSERT INTO domain_check_buckets (domain_id, minute, checks, failures) VALUES ($1, $2, 100, 1)', [
    domain.id,
    minutesAgo(3),
  ]);
  const uptime = await createSlo({
    name: 'Site up',
    target: 99.5,
    window: '30d',
    indicator: { kind: 'domain-uptime', domains: [domain.id] },
  });
  await spec.api.sql(
    `INSERT INTO remote_loads (remote, ok, at) SELECT 'mfe_status', n <= 3, now() - interval '1 minute' FROM generate_series(1, 4) AS n`,
  );
  const loads = await createSlo({
    name: 'Status loads',
    target: 99,
    window: '30d',
    indicator: { kind: 'remote-loads', remote: 'mfe_status' },
  });
  await countRound();
  const site = await json<SloDetailView>(call(`/api/slos/${uptime.id}`));
  expect([site.sli, site.good, site.total]).toEqual([99, 99, 100]);
  expect(site.topContributors).toEqual([{ kind: 'domain', id: String(domain.id), name: 'slo.example.test', bad: 1, total: 100 }]);
  // one bad check of a 0.5 % allowance of 100: 1 - 1 / 0.5 = -1 at the hour that holds it
  expect(site.burnDown.at(-1)!.errorBudgetRemaining).toBeCloseTo(-1, 10);
  expect((await json<SloView>(call(`/api/slos/${loads.id}`))).sli).toBe(75);

  const month = minutesAgo(3).toISOString().slice(0, 7);
  const csv = await call(`/api/slos/${uptime.id}/report?month=${month}&format=csv`);
  expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
  const lines = (await csv.text()).split('\n');
  expect(lines[1]).toBe('date,good,total,sli_percent,bad');
  expect(lines).toContain(`${minutesAgo(3).toISOString().slice(0, 10)},99,100,99.000,1`);
  const html = await call(`/api/slos/${uptime.id}/report?month=${month}`);
  expect(html.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(await html.text()).toContain('SLI 99.000 % — missed');
  expect((await call(`/api/slos/${uptime.id}/report?month=2026-13`)).status).toBe(400);
});

it('validates every body, keeps names unique, and shows domain SLOs only to holders of domain_management', async () => {
  const refuse = async (body: unknown, status = 400) => expect((await call('/api/slos', 'POST', body)).status).toBe(status);
  const base = { name: 'Valid', target: 99.9, window: '30d', indicator: { kind: 'breaker-calls', service: 'shop' } };
  await refuse({ ...base, target: 99.9999 });
  await refuse({ ...base, target: 40 });
  await refuse({ ...base, window: '1y' });
  await refuse({ ...base, indicator: { kind: 'breaker-calls' } });
  await refuse({ ...base, indicator: { kind: 'breaker-calls', service: 'shop', breakers: [1] } });
  await refuse({ ...base, indicator: { kind: 'breaker-calls', breakers: [987654] } }, 422);
  await refuse({ ...base, indicator: { kind: 'remote-loads', remote: 'mfe_nowhere' } });
  await refuse({ ...base, extra: true });
  await createSlo(base);
  await refuse({ ...base, name: 'VALID' }, 409);

  const domain = await json<{ id: number }>(call('/api/domains', 'POST', { domain: 'private-slo.example.test' }));
  const hidden = await createSlo({
    name: 'Private site',
    target: 99,
    window: '7d',
    indicator: { kind: 'domain-uptime', domains: [domain.id] },
  });
  // the operator reads breakers but not domains (the demo accounts' roles)
  const operator = await signIn(spec.api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
  const seen = await json<SloView[]>(call('/api/slos', 'GET', undefined, operator));
  expect(seen.some((slo) => slo.name === 'Valid')).toBe(true);
  expect(seen.some((slo) => slo.name === 'Private site')).toBe(false);
  expect((await call(`/api/slos/${hidden.id}`, 'GET', undefined, operator)).status).toBe(404);
  expect((await call('/api/slos', 'POST', { ...base, name: 'Not mine' }, operator)).status).toBe(403);
});

it("pages through an escalation policy, and a domain SLO's alert group is hidden from those who may not read domains", async () => {
  const domain = await json<{ id: number }>(call('/api/domains', 'POST', { domain: 'paged-slo.example.test' }));
  await spec.api.sql('INSERT INTO domain_check_buckets (domain_id, minute, checks, failures) VALUES ($1, $2, 10, 5)', [
    domain.id,
    minutesAgo(1),
  ]);
  const channel = await json<{ id: string }>(call('/api/notification-channels', 'POST', { name: 'SLO paging log', type: 'log' }));
  const policy = await json<{ id: string }>(
    call('/api/escalation-policies', 'POST', { name: 'SLO paging', steps: [{ notify: { channels: [channel.id] }, waitMinutes: 60 }] }),
  );
  // a rule that may route a domain SLO's events also routes domain events
  const rule = { name: 'Domain SLOs page', events: ['slo.burn_rate', 'domain.alert.opened'], escalationPolicyId: policy.id };
  expect((await call('/api/notification-rules', 'POST', rule)).status).toBe(201);
  const slo = await createSlo({ name: 'Paged site', target: 99, window: '7d', indicator: { kind: 'domain-uptime', domains: [domain.id] } });
  await countRound();
  const groupsOf = async (cookie: string) =>
    (await json<{ items: { id: number; title: string }[] }>(call(`/api/alert-groups?subject=slo:${slo.id}`, 'GET', undefined, cookie)))
      .items;
  expect(await eventually(async () => (await groupsOf(spec.admin)).length === 1, 10_000)).toBe(true);
  expect((await groupsOf(spec.admin))[0]!.title).toContain('Paged site');
  const operator = await signIn(spec.api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
  expect(await groupsOf(operator)).toEqual([]);
  const group = (await groupsOf(spec.admin))[0]!;
  expect((await call(`/api/alert-groups/${group.id}`, 'GET', undefined, operator)).status).toBe(403);
});
