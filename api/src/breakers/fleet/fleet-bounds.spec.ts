import type { AgentBreakerReport, AgentReport, BreakerConfigView, BreakerInstancesPage, BreakerStats } from '@cbh/contracts';
import { InstanceRegistry } from '../../platform/replicas/instance-registry.service';
import { eventually, twoReplicasForThisFile, type TestApi } from '../../../test/test-api';
import { serviceToken } from '../../../test/agent-reports';

// two replicas on one database: what one service may cost is bounded for the cluster, not per replica
const spec = twoReplicasForThisFile({
  // the bounds measured here are the service's, not a token's or an account's rate
  TOKEN_RATE_LIMIT: '100000',
  AGENT_REPORT_RATE_LIMIT: '100000',
});

const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
const get = <T>(path: string, replica = spec.api) => json<T>(replica.call(path, { cookie: spec.admin }));

const sendReport = (token: string, report: unknown, replica = spec.api) =>
  fetch(`${replica.baseUrl}/api/agent/reports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(report),
  });

function breaker(name: string, successes = 0, fields: Partial<AgentBreakerReport> = {}): AgentBreakerReport {
  return {
    name,
    library: 'opossum',
    type: 'error-percentage',
    settings: { errorThresholdPercentage: 50 },
    state: 'CLOSED',
    override: 'none',
    window: {
      successes,
      failures: 0,
      timeouts: 0,
      rejections: 0,
      latencyHistogram: { boundsMs: [10], counts: [successes, 0] },
      longestCallMs: 1,
    },
    transitions: [],
    ...fields,
  };
}

const report = (service: string, instance: string, breakers: AgentBreakerReport[], fields: Partial<AgentReport> = {}): AgentReport => ({
  version: 1,
  service,
  instance,
  sentAt: new Date().toISOString(),
  breakers,
  ...fields,
});

const breakerNamed = async (service: string, name: string) =>
  (await get<BreakerConfigView[]>(`/api/circuit-breakers?source=agent&service=${service}`)).find((item) => item.name === name)!;
const count = async (sql: string, params: unknown[] = []) => Number(((await spec.api.sql(sql, params)) as { n: string }[])[0]!.n);

/** Instances heard within the hour, written behind the API's back, that hold `rows` rows between them. */
const holding = (service: string, rows: number) =>
  spec.api.sql("INSERT INTO agent_instances (service, instance, last_seen, breakers) VALUES ($1, $1 || '-elsewhere', now(), $2)", [
    service,
    rows,
  ]);
const breakers = (n: number) => Array.from({ length: n }, (_, i) => breaker(`b${i}`));

describe("what one service's agents may cost the hub", () => {
  it('refuses an instance admitted small that grows past the rows one service may hold, on either replica', async () => {
    const token = await serviceToken(spec.api, spec.admin, 'growing');
    await holding('growing', 49_990);
    for (const instance of ['g-1', 'g-2']) expect((await sendReport(token, report('growing', instance, breakers(1)))).status).toBe(200);
    // 49,992 rows held: g-1 may grow by 8 breakers, not by 9, whichever replica hears it (each heard it lately or not)
    for (const replica of [spec.api, spec.second]) {
      const refused = await sendReport(token, report('growing', 'g-1', breakers(10)), replica);
      expect(refused.status).toBe(429);
      expect((await refused.json()).message).toBe(
        'Service growing has 49992 instance rows (instances × breakers), and instance g-1 would pass the most one service may (50000); it is not taken',
      );
    }
    expect((await sendReport(token, report('growing', 'g-1', breakers(9)), spec.second)).status).toBe(200);
    expect((await sendReport(token, report('growing', 'g-2', breakers(2)))).status).toBe(429);
    // fewer breakers than it had add no rows: taken, and its place is kept
    expect((await sendReport(token, report('growing', 'g-1', breakers(3)))).status).toBe(200);
    expect((await sendReport(token, report('growing', 'g-2', breakers(1)), spec.second)).status).toBe(200);
    expect((await sendReport(token, report('growing', 'g-3', breakers(1)))).status).toBe(429);
  });

  it('lets first reports taken at once, over both replicas, pass the rows one service may hold none the more', async () => {
    const token = await serviceToken(spec.api, spec.admin, 'crowding');
    await holding('crowding', 49_950);
    // room for 10 instances of 5 breakers: 30 arrive at once
    const statuses = await Promise.all(
      Array.from(
        { length: 30 },
        async (_, n) => (await sendReport(token, report('crowding', `c-${n}`, breakers(5)), n % 2 ? spec.second : spec.api)).status,
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });

  it('refuses a new instance past the instances heard within the hour, however quickly the names rotate, and so bounds the rows', async () => {
    const token = await serviceToken(spec.api, spec.admin, 'rotating');
    const statuses: number[] = [];
    const refusals = new Set<string>();
    // 1,010 instances reporting once each, sixteen at a time over both replicas: names rotate faster than any goes stale
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async (_, lane) => {
        while (next < 1010) {
          const n = next++;
          const response = await sendReport(token, report('rotating', `pod-${n}`, [breaker('db')]), lane % 2 ? spec.second : spec.api);
          statuses.push(response.status);
          if (response.status !== 200) refusals.add(`${response.status} ${(await response.json()).message}`.replace(`pod-${n} `, 'pod-N '));
        }
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1000);
    expect([...refusals]).toEqual([
      '429 Service rotating had 1000 instances reporting within the hour, the most one service may (1000); instance pod-N is not taken',
    ]);
    const rows =
      "SELECT count(*) AS n FROM breaker_instances b JOIN circuit_breaker_configs c ON c.id = b.config_id WHERE c.service = 'rotating'";
    expect(await count(rows)).toBe(1000);
    // an instance already heard goes on reporting
    expect((await sendReport(token, report('rotating', 'pod-3', [breaker('db')]))).status).toBe(200);
  });

  it('refuses a new instance whose rows would pass the rows one service may hold', async () => {
    const token = await serviceToken(spec.api, spec.admin, 'wide');
    expect((await sendReport(token, report('wide', 'w-0', [breaker('b0')]))).status).toBe(200);
    const { id } = await breakerNamed('wide', 'b0');
    // 49,999 more rows, written behind the API's back by instances silent for five minutes (still listed)
    await spec.api.sql(
      `INSERT INTO breaker_instances (config_id, instance, state, override, reported_at, period_ms, periods)
       SELECT $1, 'w-' || n, 'CLOSED', 'none', now() - interval '5 minutes', 1000, '[]'::jsonb FROM generate_series(1, 49999) AS n`,
      [id],
    );
    await holding('wide', 49_999);
    const refused = await sendReport(token, report('wide', 'w-new', [breaker('b0'), breaker('b1')]));
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toBe(
      'Service wide has 50000 instance rows (instances × breakers), and instance w-new would pass the most one service may (50000); it is not taken',
    );
    expect((await sendReport(token, report('wide', 'w-0', [breaker('b0')]))).status).toBe(200);
    // the breaker deleted takes its rows along, from the table and from every replica's figures
    expect((await spec.api.call(`/api/circuit-breakers/${id}`, { method: 'DELETE', cookie: spec.admin })).status).toBe(204);
    expect(await count('SELECT count(*) AS n FROM breaker_instances WHERE config_id = $1', [id])).toBe(0);
  });

  it('lists an instance silent for ten minutes no more, on every replica, and deletes its row', async () => {
    const token = await serviceToken(spec.api, spec.admin, 'fading');
    for (const instance of ['f-1', 'f-2'])
      expect((await sendReport(token, report('fading', instance, [breaker('queue')]))).status).toBe(200);
    const { id } = await breakerNamed('fading', 'queue');
    const listed = async (replica: TestApi) =>
      (await get<BreakerInstancesPage>(`/api/circuit-breakers/${id}/instances`, replica)).instances.map((instance) => instance.instance);
    for (const replica of [spec.api, spec.second]) expect(await eventually(async () => (await listed(replica)).length === 2)).toBe(true);
    // f-2 last heard eleven minutes ago, as a replica would read it: written as a report writes a row (the merger
    // reads again only a row whose count of writes moved)
    await spec.api.sql(
      "UPDATE breaker_instances SET reported_at = now() - interval '11 minutes', writes = writes + 1, written_by = txid_current() WHERE config_id = $1 AND instance = 'f-2'",
      [id],
    );
    for (const replica of [spec.api, spec.second]) {
      expect(await eventually(async () => (await listed(replica)).join() === 'f-1')).toBe(true);
    }
    // and its row is deleted, by the replica that merges the rows for the cluster
    const left = () => count('SELECT count(*) AS n FROM breaker_instances WHERE config_id = $1', [id]);
    expect(await eventually(async () => (await left()) === 1, 5000)).toBe(true);
  });
});

describe("an agent's report retried", () => {
  it('is refused when its sentAt is older than AGENT_REPORT_RESEND_MS, since its id may be forgotten', async () => {
    const token = await serviceToken(spec.api, spec.admin, 'late');
    const sentAt = new Date(Date.now() - 11 * 60_000).toISOString();
    const late = await sendReport(token, report('late', 'l-1', [breaker('mail', 3)], { id: 'report-old', sentAt }), spec.second);
    expect(late.status).toBe(400);
    expect((await late.json()).message).toBe(
      `Report report-old was sent at ${sentAt}, more than 10 minutes ago, the oldest a report with an id is taken; it is not taken (if this instance's clock is behind, set it right)`,
    );
    expect(await count("SELECT count(*) AS n FROM circuit_breaker_configs WHERE service = 'late'")).toBe(0);
    // nine minutes late is taken, and so is a late report without an id (it is never retried as one)
    const nine = new Date(Date.now() - 9 * 60_000).toISOString();
    expect((await sendReport(token, report('late', 'l-1', [breaker('mail', 3)], { id: 'report-nine', sentAt: nine }))).status).toBe(200);
    expect(await sendReport(token, report('late', 'l-1', [breaker('mail', 3)], { sentAt }))).toMatchObject({ status: 200 });
  });

  it('is counted once, whichever replica takes each try: its calls and its moves', async () => {
    const token = await serviceToken(spec.api, spec.admin, 'retrying');
    const at = new Date().toISOString();
    const first = report(
      'retrying',
      'r-1',
      [breaker('ledger', 10, { state: 'OPEN', transitions: [{ from: 'CLOSED', to: 'OPEN', at, reason: 'failures' }] })],
      { id: 'report-7f3a' },
    );
    expect((await sendReport(token, first)).status).toBe(200);
    // the answer was lost: the agent sends the same report again, to the other replica
    const again = await sendReport(token, first, spec.second);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ version: 1, controls: [] });
    const { id } = await breakerNamed('retrying', 'ledger');
    // the instance's calls as every replica's figures and /metrics add them up: its period once, not twice
    const successes = async (instance: string) =>
      Number(
        (
          (await spec.api.sql('SELECT totals[1] AS n FROM breaker_instances WHERE config_id = $1 AND instance = $2', [id, instance])) as {
            n: number;
          }[]
        )[0]!.n,
      );
    expect(await successes('r-1')).toBe(10);
    expect(await count('SELECT count(*) AS n FROM breaker_transitions WHERE config_id = $1', [id])).toBe(1);
    // a report of a new id is counted, and one without an id (version 1 allows it) is taken each time
    expect((await sendReport(token, report('retrying', 'r-1', [breaker('ledger', 5)], { id: 'report-8c01' }), spec.second)).status).toBe(
      200,
    );
    for (let i = 0; i < 2; i++) expect((await sendReport(token, report('retrying', 'r-1', [breaker('ledger', 1)]))).status).toBe(200);
    expect(await successes('r-1')).toBe(17);
  });
});

describe("a fleet's instance rows", () => {
  it('are merged by one replica for the cluster, and the other shows the figures it wrote to fleet_figures', async () => {
    const token = await serviceToken(spec.api, spec.admin, 'merged');
    expect((await sendReport(token, report('merged', 'm-1', [breaker('db', 7)]))).status).toBe(200);
    expect((await sendReport(token, report('merged', 'm-2', [breaker('db', 5)]), spec.second)).status).toBe(200);
    const { id } = await breakerNamed('merged', 'db');
    const successesOn = async (replica: TestApi) =>
      (await get<{ stats: BreakerStats[] }>('/api/metrics/latest', replica)).stats.find((stats) => stats.configId === id)?.successCount;
    const written = async () =>
      ((await spec.api.sql('SELECT stats FROM fleet_figures WHERE config_id = $1', [id])) as { stats: BreakerStats }[])[0]?.stats;
    // both instances' calls, merged once and written for the replica that does not merge
    expect(await eventually(async () => (await written())?.successCount === 12)).toBe(true);
    for (const replica of [spec.api, spec.second]) expect(await eventually(async () => (await successesOn(replica)) === 12)).toBe(true);
    const [lease] = (await spec.api.sql("SELECT holder FROM cluster_leases WHERE role = 'fleet.figures'")) as { holder: string }[];
    const instanceOf = (replica: TestApi) => replica.app.get(InstanceRegistry, { strict: false }).id;
    const merger = [spec.api, spec.second].find((replica) => instanceOf(replica) === lease?.holder)!;
    const follower = merger === spec.api ? spec.second : spec.api;
    // the follower shows what fleet_figures says, not what it would merge from the rows; the merger its own sums
    await spec.api.sql(
      "UPDATE fleet_figures SET stats = jsonb_set(stats, '{successCount}', '4321'), written_by = txid_current() WHERE config_id = $1",
      [id],
    );
    expect(await eventually(async () => (await successesOn(follower)) === 4321)).toBe(true);
    expect(await successesOn(merger)).toBe(12);
  });

  it('are read whole once, then by the period each write added', async () => {
    const token = await serviceToken(spec.api, spec.admin, 'newest');
    // on either replica: the merger's own figures, or the other's read of them (counts at most every 2 s)
    const successesOf = async (id: number) =>
      (await get<{ stats: BreakerStats[] }>('/api/metrics/latest')).stats.find((stats) => stats.configId === id)?.successCount;
    expect((await sendReport(token, report('newest', 'n-1', [breaker('db', 5)]))).status).toBe(200);
    const { id } = await breakerNamed('newest', 'db');
    expect(await eventually(async () => (await successesOf(id)) === 5, 5000)).toBe(true);
    // the kept periods emptied behind the merger's back: a row written once more is read by its newest period alone
    await spec.api.sql("UPDATE breaker_instances SET periods = '[]' WHERE config_id = $1", [id]);
    expect((await sendReport(token, report('newest', 'n-1', [breaker('db', 7)]))).status).toBe(200);
    expect(await eventually(async () => (await successesOf(id)) === 12, 5000)).toBe(true);
    // a row whose writes the merger did not follow one by one is read whole: its periods now hold the 7 calls only
    await spec.api.sql('UPDATE breaker_instances SET writes = writes + 2, written_by = txid_current() WHERE config_id = $1', [id]);
    expect(await eventually(async () => (await successesOf(id)) === 7, 5000)).toBe(true);
  });

  it('are written for the other replicas at once when a state moves, and at most every 2 s when only counts do', async () => {
    const token = await serviceToken(spec.api, spec.admin, 'throttled');
    expect((await sendReport(token, report('throttled', 't-1', [breaker('db', 1)]))).status).toBe(200);
    const { id } = await breakerNamed('throttled', 'db');
    const writer = async () =>
      ((await spec.api.sql('SELECT written_by::text AS tx FROM fleet_figures WHERE config_id = $1', [id])) as { tx: string }[])[0]?.tx;
    expect(await eventually(async () => (await writer()) !== undefined, 5000)).toBe(true);
    // counts moving at every report for 4 s: the figures' row rewritten at most every 2 s, not at every read
    const writes = new Set<string>();
    for (let i = 2; i <= 17; i++) {
      expect((await sendReport(token, report('throttled', 't-1', [breaker('db', i)]))).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 250));
      writes.add((await writer())!);
    }
    expect(writes.size).toBeGreaterThanOrEqual(2);
    expect(writes.size).toBeLessThanOrEqual(4);
    // a move goes at once, on both replicas
    const stateOn = async (replica: TestApi) =>
      (await get<{ stats: BreakerStats[] }>('/api/metrics/latest', replica)).stats.find((stats) => stats.configId === id)?.state;
    expect((await sendReport(token, report('throttled', 't-1', [breaker('db', 1, { state: 'OPEN' })]))).status).toBe(200);
    for (const replica of [spec.api, spec.second])
      expect(await eventually(async () => (await stateOn(replica)) === 'OPEN', 1500)).toBe(true);
  });
});
