import http from 'node:http';
import fc from 'fast-check';
import { Client } from 'pg';
import type { z } from 'zod';
import type { ChannelView, CreatedApiTokenView, RuleView, ScrapeTargetView, ServiceAccountView } from '@cbh/contracts';
import { DEMO_PASSWORD, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../../test/test-api';

// fast-check draws new bodies every run (no fixed seed), so the runs of every CI add up to many more than one run tries
const RUNS_PER_ENDPOINT = 2_000;
const TABLES = [
  'test_sessions',
  'circuit_breaker_configs',
  'breaker_transitions',
  'services',
  'users',
  'organizations',
  'sessions',
  'invitations',
  'audit_entries',
  'outbox_emails',
  'elevation_attempts',
  'used_totp_steps',
  'elevation_tokens',
  'domains',
  'domain_verifications',
  'ssl_certificates',
  'domain_monitoring',
  'api_tokens',
  'retention_settings',
  'notification_channels',
  'notification_rules',
  'notification_rule_channels',
  'maintenance_windows',
  'notification_deliveries',
  'scrape_targets',
  'breaker_instances',
  'remote_files',
  'remote_versions',
  'remote_releases',
  'remote_loads',
];

/** Requests sent at once to an endpoint: the bodies are independent, and one at a time the file took three minutes. */
const IN_FLIGHT = 8;

/**
 * The bodies go out through node:http on the file's kept-alive sockets rather than fetch: in the jest worker, which runs
 * the API too, fetch's own work made a request 0.9 ms and node:http 0.45, so 2,000 bodies an endpoint cost about twice
 * what 500 did through fetch, not four times.
 */
function request(
  agent: http.Agent,
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = http.request(url, { method, agent, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** A mutating endpoint and the schema its bodies must pass. */
export interface Endpoint {
  name: string;
  method: string;
  path: () => string;
  schema: z.ZodType;
  fields: string[];
  cookie: () => string | undefined;
  /** An access token to send instead of a session: the agents' endpoint takes only a service account's. */
  bearer?: () => string;
}

/**
 * One digest of every row of every table the mutating endpoints could touch. When a session was last seen, and when
 * and from where a token was last used, move with every request, malformed or not (at most once a minute): those
 * columns are left out.
 */
const ROW = "(to_jsonb(t) - 'last_seen_at' - 'last_used_at' - 'last_used_from')";
async function snapshot(db: Client): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  for (const table of TABLES) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(${ROW}::text, '|' ORDER BY ${ROW}::text), '')) AS digest FROM ${table} t`,
    );
    digests[table] = `${rows[0].n}:${rows[0].digest}`;
  }
  return digests;
}

/** Request bodies that the endpoint's schema rejects: any JSON, wrong types, unknown fields, or not JSON at all. */
function malformedBodies(schema: z.ZodType, fields: string[]): fc.Arbitrary<string> {
  const json = fc.oneof(
    fc.jsonValue(),
    fc.dictionary(fc.constantFrom(...fields, 'extra', '__proto__', 'constructor'), fc.jsonValue()),
    fc.record(Object.fromEntries(fields.map((f) => [f, fc.oneof(fc.jsonValue(), fc.string({ maxLength: 3000 }))])), { requiredKeys: [] }),
  );
  return fc.oneof(
    { weight: 4, arbitrary: json.filter((value) => !schema.safeParse(value).success).map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }).filter((text) => !isValidJson(text, schema)) },
  );
}
function isValidJson(text: string, schema: z.ZodType): boolean {
  try {
    return schema.safeParse(JSON.parse(text)).success;
  } catch {
    return false;
  }
}

/**
 * The API of a malformed-input spec file, started before its first test and stopped after its last, with a row of
 * each kind the endpoints' paths name: a service account, the organization, a notification channel and rule, a scrape
 * target, an agent's token, and a domain with a certificate (id 1). Its background work has settled before the
 * first snapshot, so that a snapshot moves only if a malformed request changed something.
 */
export function malformedInputApiForThisFile() {
  const spec = {} as {
    api: TestApi;
    admin: string;
    elevationAccount: string;
    serviceAccountId: string;
    organizationId: string;
    channelId: string;
    ruleId: string;
    targetId: number;
    agentToken: string;
  };
  let db: Client;
  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const post = async <T>(path: string, body: unknown): Promise<T> =>
    (await spec.api.call(path, { method: 'POST', cookie: spec.admin, body })).json() as Promise<T>;
  const until = async (query: string) => {
    while ((await db.query(query)).rowCount === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  };

  beforeAll(async () => {
    // one round of domain checks a day: the first round runs before the snapshots, no other during them
    // a scrape target on a closed loopback port, scraped once an hour; an agent's token may send all its reports in a minute
    spec.api = await startTestApi({
      MASTER_KEY: 'master-key-for-the-tests',
      DOMAIN_CHECK_INTERVAL: '86400',
      ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
      TOKEN_RATE_LIMIT: '100000',
    });
    spec.admin = await signIn(spec.api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    spec.elevationAccount = await signIn(spec.api.baseUrl, 'elevate@example.com', DEMO_PASSWORD);
    db = new Client({ connectionString: spec.api.databaseUrl });
    await db.connect();
    spec.serviceAccountId = (await post<ServiceAccountView>('/api/service-accounts', { name: 'fuzz' })).id;
    spec.organizationId = (await db.query('SELECT id FROM organizations')).rows[0].id;
    const channel = { name: 'fuzz', type: 'email', recipients: ['fuzz@example.com'] };
    spec.channelId = (await post<ChannelView>('/api/notification-channels', channel)).id;
    const rule = { name: 'fuzz', events: ['breaker.opened'], channelIds: [spec.channelId] };
    spec.ruleId = (await post<RuleView>('/api/notification-rules', rule)).id;
    const target = { name: 'fuzz', url: 'http://127.0.0.1:9/metrics', intervalSeconds: 3600 };
    spec.targetId = (await post<ScrapeTargetView>('/api/scrape-targets', target)).id;
    const agent = (await post<ServiceAccountView>('/api/service-accounts', { name: 'fuzz-agent' })).id;
    const token = { name: 'fuzz', expiresInDays: 1 };
    spec.agentToken = (await post<CreatedApiTokenView>(`/api/service-accounts/${agent}/tokens`, token)).token;
    // its one scrape has failed and been recorded before the snapshots
    await until('SELECT 1 FROM scrape_targets WHERE last_error IS NOT NULL AND lease_owner IS NULL');
    // A domain with a certificate (id 1), so that malformed PATCHes of it are refused with something to change.
    await spec.api.call('/api/domains', { method: 'POST', cookie: spec.admin, body: { domain: 'fuzz.example.test' } });
    await until('SELECT 1 FROM domain_verifications WHERE checked_at IS NOT NULL');
    await db.query(`INSERT INTO ssl_certificates (domain_id, status) SELECT id, 'active' FROM domains ON CONFLICT DO NOTHING`);
    // the round has finished writing (it completes the round last)
    await until('SELECT 1 FROM domains WHERE check_owner IS NULL');
  });
  afterAll(async () => {
    agent.destroy();
    await db.end();
    await spec.api.stop();
  });

  /**
   * A test for each endpoint: RUNS_PER_ENDPOINT bodies its schema rejects, IN_FLIGHT at a time, each answered with a
   * 4xx of the API's error shape, and every table as it was.
   */
  const describeMalformedInput = (endpoints: Endpoint[]) =>
    describe.each(endpoints)('$name with malformed input', (endpoint) => {
      it(
        `answers ${RUNS_PER_ENDPOINT} malformed payloads with 4xx naming the problem, never 5xx, and changes nothing`,
        () => answersMalformedPayloads(endpoint),
        300_000,
      );
    });

  async function answersMalformedPayloads(endpoint: Endpoint) {
    const before = await snapshot(db);
    const statuses = new Map<number, number>();
    const wrong: { body: string; status: number; answer: unknown }[] = [];
    const bodies = fc.sample(malformedBodies(endpoint.schema, endpoint.fields), RUNS_PER_ENDPOINT);
    const send = async (body: string) => {
      const cookie = endpoint.cookie();
      const bearer = endpoint.bearer?.();
      const response = await request(
        agent,
        `${spec.api.baseUrl}${endpoint.path()}`,
        endpoint.method,
        {
          'content-type': 'application/json',
          ...(cookie ? { cookie } : {}),
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        },
        body,
      );
      const answer = JSON.parse(response.text) as { statusCode?: unknown; error?: unknown; message?: unknown };
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const shaped = answer.statusCode === response.status && typeof answer.error === 'string' && typeof answer.message === 'string';
      if (response.status < 400 || response.status >= 500 || !shaped) wrong.push({ body, status: response.status, answer });
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < bodies.length) await send(bodies[next++]!);
      }),
    );
    // each body answered otherwise is named with its answer
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(await snapshot(db)).toEqual(before);
    expect([...statuses.keys()].every((status) => status === 400 || status === 413 || status === 429)).toBe(true);
  }

  return { spec, describeMalformedInput };
}
