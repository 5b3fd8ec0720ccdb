import fc from 'fast-check';
import { Client } from 'pg';
import { parse, stringify } from 'yaml';
import { configDocumentSchema, isEnvReference, type ChannelView, type ConfigDocument } from '@cbh/contracts';
import { signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../../test/test-api';

const RUNS = 2_000;
/** Every table an import could write: a refused document leaves each exactly as it was. */
const TABLES = [
  'circuit_breaker_configs',
  'services',
  'domains',
  'domain_verifications',
  'domain_monitoring',
  'ssl_certificates',
  'test_sessions',
  'notification_channels',
  'notification_rules',
  'notification_rule_channels',
  'maintenance_windows',
  'audit_entries',
];

let api: TestApi;
let admin: string;
let db: Client;
/** The hub's own export, with a domain and notification settings: the valid document each malformed one is made from. */
let valid: Record<string, unknown>;

beforeAll(async () => {
  api = await startTestApi({ DOMAIN_CHECK_INTERVAL: '86400', ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' });
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  db = new Client({ connectionString: api.databaseUrl });
  await db.connect();
  await api.call('/api/domains', { method: 'POST', cookie: admin, body: { domain: 'fuzz.example.test' } });
  // the domain's first round of checks has finished writing (it completes the round last): none other runs during the test
  while ((await db.query('SELECT 1 FROM domain_verifications WHERE checked_at IS NOT NULL')).rowCount === 0) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  while ((await db.query('SELECT 1 FROM domains WHERE check_owner IS NULL')).rowCount === 0) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const created = async (path: string, body: unknown) => {
    const response = await api.call(path, { method: 'POST', cookie: admin, body });
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const hook: ChannelView = await created('/api/notification-channels', {
    name: 'Fuzz hook',
    type: 'webhook',
    url: 'http://127.0.0.1:9/hook',
    secret: 'a-secret-for-the-fuzz-hook',
  });
  const mail: ChannelView = await created('/api/notification-channels', {
    name: 'Fuzz mail',
    type: 'email',
    recipients: ['a@example.com'],
  });
  await created('/api/notification-rules', { name: 'Fuzz rule', events: ['breaker.opened'], channelIds: [hook.id, mail.id] });
  await created('/api/maintenance-windows', { name: 'Fuzz window', startsAt: '2026-01-01T00:00:00Z', endsAt: '2026-01-01T01:00:00Z' });
  valid = await (await fetch(`${api.baseUrl}/api/export`, { headers: { cookie: admin } })).json();
});
afterAll(async () => {
  await db.end();
  await api.stop();
});

async function snapshot(): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  for (const table of TABLES) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(to_jsonb(t)::text, '|' ORDER BY to_jsonb(t)::text), '')) AS digest FROM ${table} t`,
    );
    digests[table] = `${rows[0].n}:${rows[0].digest}`;
  }
  return digests;
}

const LISTS = ['breakers', 'services', 'domains', 'channels', 'notificationRules', 'maintenanceWindows'] as const;
const FIELDS: Record<(typeof LISTS)[number], string[]> = {
  breakers: [
    'name',
    'type',
    'failureThreshold',
    'timeout',
    'recoveryTime',
    'successThreshold',
    'minimumCalls',
    'maxConcurrentCalls',
    'maxQueue',
  ],
  services: ['name', 'endpoint', 'failureRate', 'averageResponseTime', 'breaker'],
  domains: ['name', 'autoRenew'],
  channels: ['name', 'type', 'url', 'recipients', 'secret'],
  notificationRules: [
    'name',
    'enabled',
    'events',
    'channels',
    'breakers',
    'breakerTypes',
    'domains',
    'severities',
    'minIntervalMinutes',
    'stuckOpenMinutes',
    'flappingOpenings',
    'flappingMinutes',
  ],
  maintenanceWindows: ['name', 'startsAt', 'endsAt', 'repeatWeekly', 'breakers', 'domains'],
};

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
};

/** Values no field takes: wrong types, out of range, huge strings, deep nesting. */
const badValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    -1,
    0,
    21,
    1e300,
    2.5,
    2 ** 53,
    -0.0001,
    '',
    ' ',
    'chaos',
    'ftp://x',
    '${env:1}',
    '${env:',
    null,
    true,
    [],
    {},
    [1],
    [''],
  ),
  fc.integer({ min: 2, max: 2000 }).map((length) => 'x'.repeat(length * 50)),
  fc.integer({ min: 50, max: 1000 }).map(nested),
);

type Mutation = (document: Record<string, unknown>) => void;
const item = (document: Record<string, unknown>, list: string, index: number) => {
  const items = document[list] as Record<string, unknown>[];
  return items[index % items.length]!;
};

/** One change that makes the document invalid somewhere. */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.constantFrom(...LISTS), fc.nat(), badValue).chain(([list, index, value]) =>
    fc.constantFrom(...FIELDS[list]).map((field) => (document: Record<string, unknown>) => {
      item(document, list, index)[field] = value;
    }),
  ),
  fc
    .tuple(fc.constantFrom(...LISTS), fc.nat(), fc.string({ minLength: 1, maxLength: 30 }), badValue)
    .map(([list, index, key, value]) => (document: Record<string, unknown>) => {
      item(document, list, index)[`unknown-${key}`] = value;
    }),
  fc.tuple(fc.constantFrom(...LISTS), fc.nat()).map(([list, index]) => (document: Record<string, unknown>) => {
    (document[list] as unknown[]).push(structuredClone(item(document, list, index)));
  }),
  fc.tuple(fc.constantFrom(...LISTS), fc.nat()).chain(([list, index]) =>
    fc.constantFrom(...FIELDS[list]).map((field) => (document: Record<string, unknown>) => {
      delete item(document, list, index)[field];
    }),
  ),
  fc
    .tuple(fc.constantFrom('version', ...LISTS, '__proto__', 'constructor', 'extra'), badValue)
    .map(([key, value]) => (document: Record<string, unknown>) => {
      document[key] = value;
    }),
  fc.constantFrom<Mutation>(
    (document) => void delete document.version,
    (document) => void delete document.domains,
    (document) => {
      item(document, 'services', 0).breaker = 'No such breaker';
    },
    (document) => {
      document.breakers = Array.from({ length: 5001 }, () => 1);
    },
    (document) => {
      document.channels = Array.from({ length: 101 }, (_, index) => ({ ...item(document, 'channels', 0), name: `c${index}` }));
    },
    (document) => {
      item(document, 'notificationRules', 0).channels = ['No such channel'];
    },
    (document) => {
      Object.assign(item(document, 'channels', 0), { name: 'A new channel', url: '${env:CBH_CHANNEL_NOT_SET_URL}' });
    },
  ),
);

const names = (items: { name: string }[] | undefined) => new Set((items ?? []).map((each) => each.name.toLowerCase()));

/**
 * A document the schema takes that the hub refuses all the same: a service naming a breaker, or a rule a channel,
 * that neither it nor the hub has; a new channel whose URL or secret is a reference left unfilled.
 */
function refusedByHub(document: ConfigDocument): boolean {
  const breakers = names(valid.breakers as { name: string }[]);
  const hubChannels = names(valid.channels as { name: string }[]);
  const channels = new Set([...hubChannels, ...names(document.channels)]);
  return (
    document.services.some((service) => service.breaker !== null && !breakers.has(service.breaker.toLowerCase())) ||
    (document.notificationRules ?? []).some((rule) => rule.channels.some((channel) => !channels.has(channel.toLowerCase()))) ||
    (document.channels ?? []).some(
      (channel) => !hubChannels.has(channel.name.toLowerCase()) && (isEnvReference(channel.url) || isEnvReference(channel.secret)),
    )
  );
}

/** A malformed document as JSON or YAML text, with its content type. */
const malformed: fc.Arbitrary<{ text: string; type: string }> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.constantFrom('application/json', 'application/yaml', 'text/yaml'))
      .map(([mutations, type]) => {
        const document = structuredClone(valid);
        for (const mutate of mutations) {
          try {
            mutate(document);
          } catch {
            // an earlier change replaced the list or item this one changes: the document is malformed already
          }
        }
        return { document, type };
      })
      .map(({ document, type }) => ({
        text: type === 'application/json' ? JSON.stringify(document) : stringify(document, { aliasDuplicateObjects: false }),
        type,
      }))
      // judged on what the API reads: a change JSON or YAML cannot carry (a prototype) leaves the document valid
      .filter(({ text, type }) => {
        let read: unknown;
        try {
          read = type === 'application/json' ? JSON.parse(text) : parse(text);
        } catch {
          // nesting deeper than the YAML parser recurses: unreadable here, and so to the API as well
          return true;
        }
        const parsed = configDocumentSchema.safeParse(read);
        return !parsed.success || refusedByHub(parsed.data);
      }),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      // YAML's own traps: aliases multiplying, tags, several documents, keys twice, nesting deeper than a parser recurses
      {
        text: `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n`,
        type: 'application/yaml',
      },
      { text: 'version: !!js/function "function () {}"\nbreakers: []\nservices: []\ndomains: []\n', type: 'application/yaml' },
      { text: 'version: 1\nbreakers: []\nservices: []\ndomains: []\n---\nversion: 1\n', type: 'application/yaml' },
      { text: 'version: 1\nversion: 1\nbreakers: []\nservices: []\ndomains: []\n', type: 'application/yaml' },
      { text: `${'['.repeat(100_000)}${']'.repeat(100_000)}`, type: 'application/yaml' },
      { text: `${'['.repeat(100_000)}${']'.repeat(100_000)}`, type: 'application/json' },
      { text: `${'- '.repeat(20_000)}1`, type: 'application/yaml' },
      // a value nested as deep as the generated ones go, written as YAML writes it ("- - - - …")
      { text: stringify({ version: 1, breakers: [{ name: nested(1000) }], services: [], domains: [] }), type: 'application/yaml' },
      { text: '{"version": 1, "breakers": [], "services": [], "domains": [] ', type: 'application/json' },
      { text: '', type: 'application/json' },
      { text: '', type: 'application/yaml' },
      { text: 'null', type: 'application/yaml' },
      { text: '"version: 1"', type: 'application/json' },
    ),
  },
);

it(`answers ${RUNS} malformed documents, JSON and YAML, with a 4xx naming the problem, never 5xx, and changes nothing`, async () => {
  const before = await snapshot();
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(malformed, fc.constantFrom('', '?prune=true', '?dryRun=true'), async ({ text, type }, query) => {
      const response = await fetch(`${api.baseUrl}/api/import${query}`, {
        method: 'POST',
        headers: { 'content-type': type, cookie: admin },
        body: text,
      });
      const answer = await response.json();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      expect([400, 413]).toContain(response.status);
      expect(answer).toMatchObject({ statusCode: response.status, error: expect.any(String), message: expect.any(String) });
    }),
    { numRuns: RUNS },
  );
  expect(await snapshot()).toEqual(before);
  expect(statuses.get(400)).toBeGreaterThan(RUNS / 2);
}, 300_000);

it('refuses the YAML traps with the reason', async () => {
  const answer = async (text: string) =>
    (
      await (
        await fetch(`${api.baseUrl}/api/import`, {
          method: 'POST',
          headers: { 'content-type': 'application/yaml', cookie: admin },
          body: text,
        })
      ).json()
    ).message;
  // refused by depth before the parser starts (which took a second and more on a body of brackets)
  for (const deep of [`${'['.repeat(100_000)}${']'.repeat(100_000)}`, `${'- '.repeat(20_000)}1`]) {
    expect(await answer(deep)).toMatch(
      /^The document is not valid YAML: it is nested too deeply \(more than 64 brackets, indicators and columns/,
    );
  }
  expect(await answer(stringify(parse(stringify(valid))).replace('version: 1', 'version: 1\nversion: 1'))).toMatch(
    /^The document is not valid YAML: .*unique/i,
  );
});
