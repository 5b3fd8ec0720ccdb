import type { BreakerConfigView, BreakerInstancesPage, ConfigDocument, ImportChange, JournalPage, ScrapeTargetView } from '@cbh/contracts';
import { startResilience4jEndpoint, type Resilience4jEndpoint } from '../../../test/resilience4j-endpoint';
import { eventually, twoReplicasForThisFile } from '../../../test/test-api';

// two replicas scrape the same targets: each scrape must be one replica's
const spec = twoReplicasForThisFile({ ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' });
const TOKEN = 'scrape-token-of-the-orders-service';

let endpoint: Resilience4jEndpoint;

beforeAll(async () => {
  endpoint = await startResilience4jEndpoint({
    bearerToken: TOKEN,
    breakers: [
      { name: 'inventoryService', minimumNumberOfCalls: 5, slidingWindowSize: 10 },
      { name: 'paymentService', state: 'open' },
    ],
  });
});
afterAll(async () => {
  await endpoint?.close();
});

const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
const call = (path: string, method = 'GET', body?: unknown, replica = spec.api) => replica.call(path, { method, body, cookie: spec.admin });
const scraped = (service: string) => json<BreakerConfigView[]>(call(`/api/circuit-breakers?source=scrape&service=${service}`));

/** Makes the target due now and waits for its next scrape to finish (a scrape is due every 5 s at the most often). */
async function scrapeNow(target: ScrapeTargetView): Promise<ScrapeTargetView> {
  const [{ last }] = await spec.api.sql('SELECT last_scrape_at AS last, last_error FROM scrape_targets WHERE id = $1', [target.id]);
  await spec.api.sql('UPDATE scrape_targets SET next_run_at = now() WHERE id = $1', [target.id]);
  let view = target;
  const done = await eventually(async () => {
    view = await json<ScrapeTargetView>(call(`/api/scrape-targets/${target.id}`));
    const [row] = await spec.api.sql('SELECT next_run_at > now() AS waiting, lease_owner FROM scrape_targets WHERE id = $1', [target.id]);
    return row.waiting && row.lease_owner === null && (view.lastScrapeAt !== (last?.toISOString() ?? null) || view.lastError !== null);
  }, 5000);
  expect(done).toBe(true);
  return view;
}

/** POST /api/scrape-targets of a target at the test endpoint, with its token. */
const createTarget = (name: string, intervalSeconds: number) =>
  call('/api/scrape-targets', 'POST', { name, url: endpoint.url, intervalSeconds, bearerToken: TOKEN });

describe('when a target is scraped', () => {
  const lastScrape = async (id: number) => (await json<ScrapeTargetView>(call(`/api/scrape-targets/${id}`))).lastScrapeAt;

  it('sleeps while no target is due, and scrapes at once a target made due sooner (the database wakes every replica)', async () => {
    const created = await createTarget('hourly', 3600);
    expect(created.status).toBe(201);
    const { id } = await json<ScrapeTargetView>(created);
    expect(await eventually(async () => (await lastScrape(id)) !== null, 4000)).toBe(true);
    const first = await lastScrape(id);
    // due in an hour, and no other target: both replicas look again only every 10 s once the scrape has ended
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await spec.api.sql('UPDATE scrape_targets SET next_run_at = now() WHERE id = $1', [id]);
    expect(await eventually(async () => (await lastScrape(id)) !== first, 4000)).toBe(true);
    expect((await call(`/api/scrape-targets/${id}`, 'DELETE')).status).toBe(204);
  });
});

describe('scrape targets', () => {
  let target: ScrapeTargetView;

  it('creates a target (201 with its id), scrapes it with its bearer token, and never sends the token back', async () => {
    const created = await createTarget('orders', 5);
    expect(created.status).toBe(201);
    target = await created.json();
    expect(target).toMatchObject({ id: expect.any(Number), name: 'orders', url: endpoint.url, intervalSeconds: 5, bearerTokenSet: true });
    expect(JSON.stringify(target)).not.toContain(TOKEN);
    target = await scrapeNow(target);
    expect(target).toMatchObject({ lastError: null, breakers: 2 });
    expect(endpoint.requests.lastAuthorization).toBe(`Bearer ${TOKEN}`);
    const audit = await spec.api.sql("SELECT after FROM audit_entries WHERE action = 'scrape-target.create'");
    expect(JSON.stringify(audit)).not.toContain(TOKEN);
  });

  it("puts the target's breakers on the wall read-only, under their resilience4j names, with the target as service", async () => {
    // the wall's figures are read again twice a second
    expect(await eventually(async () => (await scraped('orders'))[1]?.state === 'OPEN')).toBe(true);
    const breakers = await scraped('orders');
    expect(breakers.map((breaker) => [breaker.name, breaker.source, breaker.service, breaker.library, breaker.state])).toEqual([
      ['inventoryService', 'scrape', 'orders', 'resilience4j', 'CLOSED'],
      ['paymentService', 'scrape', 'orders', 'resilience4j', 'OPEN'],
    ]);
    const payment = breakers[1]!;
    for (const action of ['force-open', 'force-closed', 'disable', 'reset']) {
      const refused = await call(`/api/circuit-breakers/${payment.id}/${action}`, 'POST');
      expect(refused.status).toBe(409);
      expect((await refused.json()).message).toBe(
        'Circuit breaker paymentService is read-only: it is scraped from orders, and the hub cannot push to a scraped service',
      );
    }
    const settings = await call(`/api/circuit-breakers/${payment.id}`, 'PATCH', { librarySettings: { failureRateThreshold: 10 } });
    expect(settings.status).toBe(409);
    // in a bulk control, the scraped breaker is refused in its place while the others are controlled
    const [hubBreaker] = await json<BreakerConfigView[]>(call('/api/circuit-breakers?source=hub'));
    const bulk = await call('/api/circuit-breakers/bulk', 'POST', { action: 'force-open', ids: [payment.id, hubBreaker!.id] });
    expect(bulk.status).toBe(200);
    const { results } = await bulk.json();
    expect(results[0]).toMatchObject({ id: payment.id, ok: false, status: 409, message: expect.stringContaining('read-only') });
    expect(results[1]).toMatchObject({ id: hubBreaker!.id, ok: true, status: 200 });
    await call(`/api/circuit-breakers/${hubBreaker!.id}/reset`, 'POST');
  });

  it('counts the calls between two scrapes, and journals a state the service changed', async () => {
    endpoint.recordCalls('inventoryService', { successful: 8, failed: 2, notPermitted: 3, durationMs: 40 });
    endpoint.setBreaker('inventoryService', { state: 'forced_open' });
    const configRows = () =>
      spec.api.sql(
        `SELECT id, xmin::text AS version FROM circuit_breaker_configs WHERE source = 'scrape' AND service = 'orders' ORDER BY id`,
      );
    const rowsBefore = await configRows();
    await scrapeNow(target);
    // the breakers' configuration rows, known to both replicas, are not written again by a scrape
    expect(await configRows()).toEqual(rowsBefore);
    expect(await eventually(async () => (await scraped('orders'))[0]?.override === 'forced-open')).toBe(true);
    const [inventory] = await scraped('orders');
    expect(inventory).toMatchObject({ state: 'OPEN', override: 'forced-open' });
    const page = await json<BreakerInstancesPage>(call(`/api/circuit-breakers/${inventory!.id}/instances`, 'GET', undefined, spec.second));
    expect(
      await eventually(async () => {
        const { merged } = await json<BreakerInstancesPage>(call(`/api/circuit-breakers/${inventory!.id}/instances`));
        return merged?.successCount === 8 && merged.failureCount === 2 && merged.shortCircuitedCount === 3;
      }),
    ).toBe(true);
    expect(page.instances.map((instance) => instance.instance)).toEqual(['orders']);
    const journal = await json<JournalPage>(call(`/api/circuit-breakers/${inventory!.id}/transitions`));
    expect(journal.transitions[0]).toMatchObject({ from: 'CLOSED', to: 'OPEN', serviceInstance: 'orders' });
    expect(journal.transitions[0]!.reason).toContain('closed → forced_open');
  });

  it('makes again at the next scrape a breaker deleted while its service still exposes it, though no replica was told', async () => {
    const [, payment] = await scraped('orders');
    // deleted behind the replicas' backs: no announcement reaches them, so what they hold in memory is stale
    await spec.api.sql('DELETE FROM circuit_breaker_configs WHERE id = $1', [payment!.id]);
    await scrapeNow(target);
    const again = await scraped('orders');
    expect(again.map((breaker) => breaker.name)).toEqual(['inventoryService', 'paymentService']);
    expect(again[1]!.id).not.toBe(payment!.id);
    const [row] = await spec.api.sql('SELECT count(*)::int AS n FROM breaker_instances WHERE config_id = $1', [again[1]!.id]);
    expect(row.n).toBe(1);
  });

  it("keeps a failed scrape's reason with the target, and scrapes each target on one replica at a time", async () => {
    const before = endpoint.requests.count;
    await scrapeNow(target);
    await scrapeNow(target);
    expect(endpoint.requests.count - before).toBe(2);

    endpoint.respondWith({ status: 500, body: 'boom' });
    expect(await scrapeNow(target)).toMatchObject({ lastError: expect.stringMatching(/^HTTP 500 from 127\.0\.0\.1:\d+$/) });
    endpoint.respondWith(null);
    // the token goes to another origin only when given again for it
    const moved = await call(`/api/scrape-targets/${target.id}`, 'PATCH', { url: 'https://127.0.0.1:9/actuator/prometheus' });
    expect(moved.status).toBe(400);
    expect((await moved.json()).message).toBe(
      'bearerToken: the URL moves to https://127.0.0.1:9; give the token again for it, or null to scrape it without one',
    );
    const wrongToken = await call(`/api/scrape-targets/${target.id}`, 'PATCH', { bearerToken: 'not-the-token' });
    expect(wrongToken.status).toBe(200);
    expect(await scrapeNow(target)).toMatchObject({ lastError: expect.stringContaining('HTTP 401'), bearerTokenSet: true });
    await call(`/api/scrape-targets/${target.id}`, 'PATCH', { bearerToken: TOKEN });
    expect(await scrapeNow(target)).toMatchObject({ lastError: null });
  });

  it('refuses bad targets, naming the field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: 'x', url: endpoint.url, intervalSeconds: 4 }, /^intervalSeconds: must be at least 5 seconds$/],
      [{ name: 'Has Spaces', url: endpoint.url }, /^name: /],
      [{ name: 'meta', url: 'http://169.254.169.254/metrics' }, /^url: Refused to call 169\.254\.169\.254/],
      [{ name: 'outside', url: 'http://127.0.0.2:9/metrics' }, /^url: Refused to call 127\.0\.0\.2/],
      [{ name: 'orders', url: endpoint.url }, /orders/],
    ];
    for (const [body, message] of cases) {
      const refused = await call('/api/scrape-targets', 'POST', body);
      expect([400, 409]).toContain(refused.status);
      expect((await refused.json()).message).toMatch(message);
    }
  });

  it('renames the service of its breakers with it, and deleting it deletes them', async () => {
    const renamed = await call(`/api/scrape-targets/${target.id}`, 'PATCH', { name: 'orders-eu' });
    expect(renamed.status).toBe(200);
    expect((await scraped('orders-eu')).map((breaker) => breaker.name)).toEqual(['inventoryService', 'paymentService']);
    expect(await scraped('orders')).toEqual([]);
    expect((await call(`/api/scrape-targets/${target.id}`, 'DELETE')).status).toBe(204);
    expect(await scraped('orders-eu')).toEqual([]);
    expect((await call(`/api/scrape-targets/${target.id}`)).status).toBe(404);
  });
});

describe('scrape targets in the configuration document', () => {
  const document = async (): Promise<ConfigDocument> => json<ConfigDocument>(call('/api/export'));
  const importing = (body: unknown, query = '', cookie = spec.admin) =>
    spec.api.call(`/api/import${query}`, { method: 'POST', body, cookie });
  const changes = async (body: unknown, query = ''): Promise<ImportChange[]> => {
    const response = await importing(body, query);
    const answer = await response.json();
    expect({ status: response.status, answer }).toMatchObject({ status: 200 });
    return (answer.changes as ImportChange[]).filter((change) => change.kind === 'scrapeTarget');
  };

  it('exports each target with its token as a reference, and imports, keeps, changes and prunes them by name', async () => {
    const created = await changes({
      ...(await document()),
      scrapeTargets: [{ name: 'billing', url: endpoint.url, intervalSeconds: 30, bearerToken: TOKEN }],
    });
    expect(created).toEqual([{ kind: 'scrapeTarget', name: 'billing', action: 'create' }]);
    const exported = await document();
    expect(exported.scrapeTargets).toEqual([
      { name: 'billing', url: endpoint.url, intervalSeconds: 30, bearerToken: '${env:CBH_SCRAPE_BILLING_TOKEN}' },
    ]);
    // the export as it is changes nothing: the reference keeps the token
    expect(await changes(exported)).toEqual([{ kind: 'scrapeTarget', name: 'billing', action: 'unchanged' }]);
    const [row] = await spec.api.sql("SELECT bearer_token_sealed FROM scrape_targets WHERE name = 'billing'");
    expect(row.bearer_token_sealed).not.toBeNull();

    expect(
      await changes({
        ...exported,
        scrapeTargets: [{ name: 'billing', url: endpoint.url, intervalSeconds: 60, bearerToken: 'another-token' }],
      }),
    ).toEqual([{ kind: 'scrapeTarget', name: 'billing', action: 'update', fields: ['intervalSeconds', 'bearerToken'] }]);

    const elsewhere = await importing({
      ...exported,
      scrapeTargets: [{ ...exported.scrapeTargets![0]!, url: 'https://127.0.0.1:9/metrics' }],
    });
    expect(elsewhere.status).toBe(400);
    expect((await elsewhere.json()).message).toMatch(/^scrapeTargets\[0\]\.bearerToken: .* the URL moves to https:\/\/127\.0\.0\.1:9/);
    // given again with the move, the same token as the hub's or not, it goes with the URL
    expect(
      await changes({
        ...exported,
        scrapeTargets: [{ name: 'billing', url: 'https://127.0.0.1:9/metrics', intervalSeconds: 60, bearerToken: 'another-token' }],
      }),
    ).toEqual([{ kind: 'scrapeTarget', name: 'billing', action: 'update', fields: ['url', 'bearerToken'] }]);

    const unfilled = await importing({
      ...exported,
      scrapeTargets: [{ name: 'fresh', url: endpoint.url, intervalSeconds: 5, bearerToken: '${env:CBH_SCRAPE_FRESH_TOKEN}' }],
    });
    expect(unfilled.status).toBe(400);
    expect((await unfilled.json()).message).toBe(
      'scrapeTargets[0].bearerToken: ${env:CBH_SCRAPE_FRESH_TOKEN} is not set where the document was read: set it or give the token',
    );

    expect(await changes({ ...exported, scrapeTargets: [] }, '?prune=true')).toEqual([
      { kind: 'scrapeTarget', name: 'billing', action: 'delete' },
    ]);
    expect((await json<ScrapeTargetView[]>(call('/api/scrape-targets'))).some((target) => target.name === 'billing')).toBe(false);
  });

  it('leaves scrape targets out of the export for those without circuit_breaker_admin, and refuses their import', async () => {
    // a token with the document's permissions alone
    const made = await call('/api/tokens', 'POST', { name: 'data only', expiresInDays: 1, permissions: ['export_data', 'import_data'] });
    const headers = { authorization: `Bearer ${(await made.json()).token}`, 'content-type': 'application/json' };
    const theirs = (await (await fetch(`${spec.api.baseUrl}/api/export`, { headers })).json()) as ConfigDocument;
    expect(theirs.scrapeTargets).toBeUndefined();
    const refused = await fetch(`${spec.api.baseUrl}/api/import`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...theirs, scrapeTargets: [] }),
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe('Requires the circuit_breaker_admin permission to import scrape targets');
  });
});
