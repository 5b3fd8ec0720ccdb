import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Client } from 'pg';
import type { z } from 'zod';
import {
  acceptInvitationSchema,
  addDomainSchema,
  updateCertificateSchema,
  createBreakerSchema,
  createServiceSchema,
  startTestSessionSchema,
  updateBreakerSettingsSchema,
  updateServiceSchema,
  elevateSchema,
  inviteUserSchema,
  loginSchema,
  updateUserPermissionsSchema,
  updateUserSchema,
  updateUserStatusSchema,
  createTokenSchema,
  pruneRetentionSchema,
  updateRetentionSchema,
  createServiceAccountSchema,
  updateServiceAccountSchema,
  updateOrganizationSchema,
  breakerBulkSchema,
  domainBulkSchema,
  createChannelSchema,
  updateChannelSchema,
  createRuleSchema,
  updateRuleSchema,
  createWindowSchema,
  createScrapeTargetSchema,
  updateScrapeTargetSchema,
  agentReportSchema,
  uploadReleaseSchema,
  promoteReleaseSchema,
  canaryReleaseSchema,
  remoteLoadsSchema,
} from '@cbh/contracts';
import { DEMO_PASSWORD, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../../test/test-api';

// fast-check draws new bodies every run (no fixed seed), so the runs of every CI add up to many more than one run tries
const RUNS_PER_ENDPOINT = 500;
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

let api: TestApi;
let admin: string;
let elevationAccount: string;
let serviceAccountId: string;
let organizationId: string;
let channelId: string;
let ruleId: string;
let targetId: number;
let agentToken: string;
let db: Client;

beforeAll(async () => {
  // one round of domain checks a day: the first round runs before the snapshots, no other during them
  // a scrape target on a closed loopback port, scraped once an hour; an agent's token may send all its reports in a minute
  api = await startTestApi({
    MASTER_KEY: 'master-key-for-the-tests',
    DOMAIN_CHECK_INTERVAL: '86400',
    ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
    TOKEN_RATE_LIMIT: '100000',
  });
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  elevationAccount = await signIn(api.baseUrl, 'elevate@example.com', DEMO_PASSWORD);
  db = new Client({ connectionString: api.databaseUrl });
  await db.connect();
  serviceAccountId = (await (await api.call('/api/service-accounts', { method: 'POST', cookie: admin, body: { name: 'fuzz' } })).json()).id;
  organizationId = (await db.query('SELECT id FROM organizations')).rows[0].id;
  const channel = { name: 'fuzz', type: 'email', recipients: ['fuzz@example.com'] };
  channelId = (await (await api.call('/api/notification-channels', { method: 'POST', cookie: admin, body: channel })).json()).id;
  const rule = { name: 'fuzz', events: ['breaker.opened'], channelIds: [channelId] };
  ruleId = (await (await api.call('/api/notification-rules', { method: 'POST', cookie: admin, body: rule })).json()).id;
  const target = { name: 'fuzz', url: 'http://127.0.0.1:9/metrics', intervalSeconds: 3600 };
  targetId = (await (await api.call('/api/scrape-targets', { method: 'POST', cookie: admin, body: target })).json()).id;
  const agent = (await (await api.call('/api/service-accounts', { method: 'POST', cookie: admin, body: { name: 'fuzz-agent' } })).json())
    .id;
  agentToken = (
    await (
      await api.call(`/api/service-accounts/${agent}/tokens`, { method: 'POST', cookie: admin, body: { name: 'fuzz', expiresInDays: 1 } })
    ).json()
  ).token;
  // its one scrape has failed and been recorded before the snapshots
  while ((await db.query('SELECT 1 FROM scrape_targets WHERE last_error IS NOT NULL AND lease_owner IS NULL')).rowCount === 0) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // A domain with a certificate (id 1), so that malformed PATCHes of it are refused with something to change.
  await api.call('/api/domains', { method: 'POST', cookie: admin, body: { domain: 'fuzz.example.test' } });
  while ((await db.query('SELECT 1 FROM domain_verifications WHERE checked_at IS NOT NULL')).rowCount === 0) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await db.query(`INSERT INTO ssl_certificates (domain_id, status) SELECT id, 'active' FROM domains ON CONFLICT DO NOTHING`);
  // the round has finished writing (it completes the round last)
  while ((await db.query('SELECT 1 FROM domains WHERE check_owner IS NULL')).rowCount === 0) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
afterAll(async () => {
  await db.end();
  await api.stop();
});

/**
 * One digest of every row of every table the mutating endpoints could touch. When a session was last seen, and when
 * and from where a token was last used, move with every request, malformed or not (at most once a minute): those
 * columns are left out.
 */
const ROW = "(to_jsonb(t) - 'last_seen_at' - 'last_used_at' - 'last_used_from')";
async function snapshot(): Promise<Record<string, string>> {
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

const ENDPOINTS: {
  name: string;
  method: string;
  path: () => string;
  schema: z.ZodType;
  fields: string[];
  cookie: () => string | undefined;
  /** An access token to send instead of a session: the agents' endpoint takes only a service account's. */
  bearer?: () => string;
}[] = [
  {
    name: 'POST /api/login',
    method: 'POST',
    path: () => '/api/login',
    schema: loginSchema,
    fields: ['email', 'password'],
    cookie: () => undefined,
  },
  {
    name: 'POST /api/users/invite',
    method: 'POST',
    path: () => '/api/users/invite',
    schema: inviteUserSchema,
    fields: ['email', 'role'],
    cookie: () => admin,
  },
  {
    name: 'PATCH /api/users/:id',
    method: 'PATCH',
    path: () => `/api/users/${randomUUID()}`,
    schema: updateUserSchema,
    fields: ['role', 'permissions'],
    cookie: () => admin,
  },
  {
    name: 'PATCH /api/users/:id/status',
    method: 'PATCH',
    path: () => `/api/users/${randomUUID()}/status`,
    schema: updateUserStatusSchema,
    fields: ['isActive'],
    cookie: () => admin,
  },
  {
    name: 'PATCH /api/users/:id/permissions',
    method: 'PATCH',
    path: () => `/api/users/${randomUUID()}/permissions`,
    schema: updateUserPermissionsSchema,
    fields: ['permissions'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/invitations/:token',
    method: 'POST',
    path: () => `/api/invitations/${randomUUID()}`,
    schema: acceptInvitationSchema,
    fields: ['password', 'firstName', 'lastName'],
    cookie: () => undefined,
  },
  {
    name: 'POST /api/tokens',
    method: 'POST',
    path: () => '/api/tokens',
    schema: createTokenSchema,
    fields: ['name', 'expiresInDays', 'permissions'],
    cookie: () => admin,
  },
  {
    name: 'PATCH /api/system/retention',
    method: 'PATCH',
    path: () => '/api/system/retention',
    schema: updateRetentionSchema,
    fields: ['auditDays', 'checkResultDays', 'transitionDays', 'notificationDays'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/system/retention/prune',
    method: 'POST',
    path: () => '/api/system/retention/prune',
    schema: pruneRetentionSchema,
    fields: [],
    cookie: () => admin,
  },
  {
    name: 'POST /api/service-accounts',
    method: 'POST',
    path: () => '/api/service-accounts',
    schema: createServiceAccountSchema,
    fields: ['name', 'role', 'permissions'],
    cookie: () => admin,
  },
  {
    name: 'PATCH /api/service-accounts/:id',
    method: 'PATCH',
    path: () => `/api/service-accounts/${serviceAccountId}`,
    schema: updateServiceAccountSchema,
    fields: ['isActive', 'role', 'permissions'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/service-accounts/:id/tokens',
    method: 'POST',
    path: () => `/api/service-accounts/${serviceAccountId}/tokens`,
    schema: createTokenSchema,
    fields: ['name', 'expiresInDays', 'permissions'],
    cookie: () => admin,
  },
  {
    name: 'PATCH /api/organizations/:id',
    method: 'PATCH',
    path: () => `/api/organizations/${organizationId}`,
    schema: updateOrganizationSchema,
    fields: ['name', 'invitationDomains', 'maxTokenDays', 'idleSessionMinutes'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/notification-channels',
    method: 'POST',
    path: () => '/api/notification-channels',
    schema: createChannelSchema,
    fields: ['name', 'type', 'url', 'recipients', 'secret'],
    cookie: () => admin,
  },
  {
    name: 'PATCH /api/notification-channels/:id',
    method: 'PATCH',
    path: () => `/api/notification-channels/${channelId}`,
    schema: updateChannelSchema,
    fields: ['name', 'url', 'recipients', 'secret'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/notification-rules',
    method: 'POST',
    path: () => '/api/notification-rules',
    schema: createRuleSchema,
    fields: ['name', 'enabled', 'events', 'channelIds', 'breakers', 'breakerTypes', 'severities', 'minIntervalMinutes', 'flappingOpenings'],
    cookie: () => admin,
  },
  {
    name: 'PATCH /api/notification-rules/:id',
    method: 'PATCH',
    path: () => `/api/notification-rules/${ruleId}`,
    schema: updateRuleSchema,
    fields: ['name', 'enabled', 'events', 'channelIds', 'severities', 'stuckOpenMinutes'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/maintenance-windows',
    method: 'POST',
    path: () => '/api/maintenance-windows',
    schema: createWindowSchema,
    fields: ['name', 'startsAt', 'endsAt', 'repeatWeekly', 'breakers', 'domains'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/scrape-targets',
    method: 'POST',
    path: () => '/api/scrape-targets',
    schema: createScrapeTargetSchema,
    fields: ['name', 'url', 'intervalSeconds', 'bearerToken'],
    cookie: () => admin,
  },
  {
    name: 'PATCH /api/scrape-targets/:id',
    method: 'PATCH',
    path: () => `/api/scrape-targets/${targetId}`,
    schema: updateScrapeTargetSchema,
    fields: ['name', 'url', 'intervalSeconds', 'bearerToken'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/agent/reports',
    method: 'POST',
    path: () => '/api/agent/reports',
    schema: agentReportSchema,
    fields: ['version', 'service', 'instance', 'sentAt', 'breakers'],
    cookie: () => undefined,
    bearer: () => agentToken,
  },
  {
    name: 'POST /api/releases/:remote/versions',
    method: 'POST',
    path: () => '/api/releases/mfe_dashboard/versions',
    schema: uploadReleaseSchema,
    fields: ['gitCommit', 'files'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/releases/:remote/promote',
    method: 'POST',
    path: () => '/api/releases/mfe_dashboard/promote',
    schema: promoteReleaseSchema,
    fields: ['versionId'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/releases/:remote/canary',
    method: 'POST',
    path: () => '/api/releases/mfe_dashboard/canary',
    schema: canaryReleaseSchema,
    fields: ['versionId', 'percent'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/releases/loads',
    method: 'POST',
    path: () => '/api/releases/loads',
    schema: remoteLoadsSchema,
    fields: ['loads'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/circuit-breakers',
    method: 'POST',
    path: () => '/api/circuit-breakers',
    schema: createBreakerSchema,
    fields: ['name', 'type', 'failureThreshold', 'timeout', 'recoveryTime', 'successThreshold', 'maxConcurrentCalls'],
    cookie: () => admin,
  },
  {
    name: 'PATCH /api/circuit-breakers/:id',
    method: 'PATCH',
    path: () => '/api/circuit-breakers/1',
    schema: updateBreakerSettingsSchema,
    fields: ['failureThreshold', 'timeout', 'recoveryTime', 'successThreshold'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/circuit-breakers/bulk',
    method: 'POST',
    path: () => '/api/circuit-breakers/bulk',
    schema: breakerBulkSchema,
    fields: ['action', 'ids'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/services',
    method: 'POST',
    path: () => '/api/services',
    schema: createServiceSchema,
    fields: ['name', 'endpoint', 'failureRate', 'averageResponseTime', 'circuitBreakerConfigId'],
    cookie: () => admin,
  },
  {
    name: 'PATCH /api/services/:id',
    method: 'PATCH',
    path: () => '/api/services/1',
    schema: updateServiceSchema,
    fields: ['name', 'endpoint', 'failureRate', 'averageResponseTime', 'circuitBreakerConfigId'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/test-sessions',
    method: 'POST',
    path: () => '/api/test-sessions',
    schema: startTestSessionSchema,
    fields: ['configId', 'failureRate', 'requestRate', 'duration'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/domains',
    method: 'POST',
    path: () => '/api/domains',
    schema: addDomainSchema,
    fields: ['domain'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/domains/bulk',
    method: 'POST',
    path: () => '/api/domains/bulk',
    schema: domainBulkSchema,
    fields: ['action', 'ids'],
    cookie: () => admin,
  },
  {
    name: 'PATCH /api/ssl-certificates/:id',
    method: 'PATCH',
    path: () => '/api/ssl-certificates/1',
    schema: updateCertificateSchema,
    fields: ['autoRenew'],
    cookie: () => admin,
  },
  {
    name: 'POST /api/auth/elevate-privileges',
    method: 'POST',
    path: () => '/api/auth/elevate-privileges',
    schema: elevateSchema,
    fields: ['method', 'masterKey', 'code'],
    cookie: () => elevationAccount,
  },
];

/** Requests sent at once to an endpoint: the bodies are independent, and one at a time the file took three minutes. */
const IN_FLIGHT = 8;

describe.each(ENDPOINTS)('$name with malformed input', (endpoint) => {
  it(`answers ${RUNS_PER_ENDPOINT} malformed payloads with 4xx naming the problem, never 5xx, and changes nothing`, async () => {
    const before = await snapshot();
    const statuses = new Map<number, number>();
    const wrong: { body: string; status: number; answer: unknown }[] = [];
    const bodies = fc.sample(malformedBodies(endpoint.schema, endpoint.fields), RUNS_PER_ENDPOINT);
    const send = async (body: string) => {
      const cookie = endpoint.cookie();
      const bearer = endpoint.bearer?.();
      const response = await fetch(`${api.baseUrl}${endpoint.path()}`, {
        method: endpoint.method,
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          ...(cookie ? { cookie } : {}),
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        },
        body,
      });
      const answer = (await response.json()) as { statusCode?: unknown; error?: unknown; message?: unknown };
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
    expect(await snapshot()).toEqual(before);
    expect([...statuses.keys()].every((status) => status === 400 || status === 413 || status === 429)).toBe(true);
  }, 300_000);
});

it('names the offending field', async () => {
  const response = await fetch(`${api.baseUrl}/api/users/invite`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: admin },
    body: JSON.stringify({ email: 'someone@example.com', role: 'emperor' }),
  });
  expect(response.status).toBe(400);
  expect((await response.json()).message).toBe('role: must be one of viewer, operator, admin, super_admin');
});
