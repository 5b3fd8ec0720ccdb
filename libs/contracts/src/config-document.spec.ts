import { configDocumentSchema, documentProblems, isEnvReference } from './config-document';
import { channelVariableStems, envReference } from './config-vocabulary';

const breaker = { name: 'Payments', type: 'simple', failureThreshold: 5, timeout: 30_000, recoveryTime: 60_000, successThreshold: 3 };

const problems = (document: unknown) => {
  const result = configDocumentSchema.safeParse(document);
  return result.success ? [] : documentProblems(result.error);
};

it('names each refused place in the document as people write it', () => {
  expect(
    problems({
      version: 1,
      breakers: [breaker, breaker, { ...breaker, name: 'Other', failureThreshold: 21 }],
      services: [],
      domains: [],
    }),
  ).toEqual(['breakers[2].failureThreshold: must be at most 20', 'breakers[1].name: repeats the name of breakers[0]']);
  expect(problems({ version: 1, breakers: [{ ...breaker, colour: 'red' }], services: [], domains: [], extra: 1 })).toEqual([
    'breakers[0]: unknown key colour',
    'unknown key extra',
  ]);
  expect(problems({ version: 1, breakers: [{ ...breaker, maxQueue: 2 }], services: [], domains: [] })).toEqual([
    'breakers[0].maxQueue: is a setting of bulkhead breakers only',
  ]);
});

it('keys items by name case-insensitively, domains by their normal form', () => {
  expect(problems({ version: 1, breakers: [], services: [], domains: [{ name: 'Example.com' }, { name: 'example.COM.' }] })).toEqual([
    'domains[1].name: repeats the name of domains[0]',
  ]);
});

it('takes a service whose endpoint is its own chaos target, and its breaker by name', () => {
  const document = configDocumentSchema.parse({
    version: 1,
    breakers: [breaker],
    services: [{ name: 'Checkout', endpoint: 'chaos', failureRate: 10, averageResponseTime: 100, breaker: 'Payments' }],
    domains: [{ name: 'Shop.Example.test', autoRenew: true }],
  });
  expect(document.services[0]!.breaker).toBe('Payments');
  expect(document.domains[0]!.name).toBe('shop.example.test');
  expect(problems({ version: 1, breakers: [], services: [{ ...document.services[0], endpoint: 'ftp://files' }], domains: [] })).toEqual([
    "services[0].endpoint: must be an http(s) URL, chaos (the service's own chaos target) or /api/chaos/<id>",
  ]);
});

it("takes SLOs by name, their members by name within the API's bounds, a name given twice in any letter case once", () => {
  const slo = { name: 'Checkout', target: 99.9, window: '30d', indicator: { kind: 'breaker-calls', breakers: ['Payments', 'payments'] } };
  const document = configDocumentSchema.parse({ version: 1, breakers: [], services: [], domains: [], slos: [slo] });
  expect(document.slos![0]!.indicator).toEqual({ kind: 'breaker-calls', breakers: ['Payments'] });
  const many = Array.from({ length: 101 }, (_, i) => `d${i}.example.test`);
  const base = { version: 1, breakers: [], services: [], domains: [] };
  expect(problems({ ...base, slos: [{ ...slo, target: 99.0001, indicator: { kind: 'domain-uptime', domains: many } }] })).toEqual([
    'slos[0].target: must have at most three decimals',
    'slos[0].indicator.domains: must name at most 100',
  ]);
  expect(problems({ ...base, slos: [slo, { ...slo, name: 'CHECKOUT' }] })).toEqual(['slos[1].name: repeats the name of slos[0]']);
});

it("takes saved drills by name, their breakers by name (never an id) within the API's bounds", () => {
  const base = { version: 1, breakers: [], services: [], domains: [] };
  const step = { breaker: 'Payments', fault: { kind: 'error', rate: 0.5 }, instances: 'all', durationSeconds: 30 };
  const drill = { name: 'Failover', steps: [step, { ...step, breaker: { service: ' checkout ', name: 'payments' } }] };
  const document = configDocumentSchema.parse({ ...base, drills: [drill] });
  expect(document.drills![0]!.steps[1]!.breaker).toEqual({ service: 'checkout', name: 'payments' });
  expect(document.drills![0]!.expectations).toEqual([]);
  expect(problems({ ...base, drills: [{ ...drill, steps: [{ ...step, breaker: 12, durationSeconds: 901 }] }] })).toEqual([
    "drills[0].steps[0].breaker: must be the name of one of the hub's breakers, or { service, name }",
    'drills[0].steps[0].durationSeconds: must be at most 900',
  ]);
  const expectation = { breaker: 'Payments', state: 'OPEN', withinSeconds: 10, after: 'start' };
  expect(problems({ ...base, drills: [drill, { ...drill, name: 'FAILOVER', expectations: [expectation] }] })).toEqual([
    'drills[1].name: repeats the name of drills[0]',
  ]);
  const many = Array.from({ length: 101 }, (_, i) => ({ ...drill, name: `d${i}` }));
  expect(problems({ ...base, drills: many })).toEqual(['drills: must hold at most 100 items']);
});

describe('notification items', () => {
  const base = { version: 1, breakers: [], services: [], domains: [] };
  const hook = { name: 'Ops', type: 'webhook', url: '${env:CBH_CHANNEL_OPS_URL}', secret: '${env:CBH_CHANNEL_OPS_SECRET}' };
  const rule = { name: 'Opened', events: ['breaker.opened'], channels: ['ops'] };

  it('leaves the notification lists out of a document that does not need them', () => {
    expect(problems(base)).toEqual([]);
    expect(configDocumentSchema.parse(base)).not.toHaveProperty('channels');
  });

  it("takes a channel's URL and secret as values or as references ${env:NAME}, which it keeps as they are", () => {
    const document = configDocumentSchema.parse({
      ...base,
      channels: [hook, { name: 'Chat', type: 'slack', url: ' https://hooks.example.com/x ' }],
      notificationRules: [rule],
      maintenanceWindows: [{ name: 'Deploys', startsAt: '2026-01-02T16:00:00+01:00', endsAt: '2026-01-02T18:00:00Z' }],
    });
    expect(document.channels).toEqual([hook, { name: 'Chat', type: 'slack', url: 'https://hooks.example.com/x' }]);
    expect(isEnvReference(document.channels![0]!.url)).toBe(true);
    expect(isEnvReference(document.channels![1]!.url)).toBe(false);
    expect(document.notificationRules![0]).toMatchObject({ enabled: true, breakers: [], minIntervalMinutes: 5 });
    expect(document.maintenanceWindows![0]).toMatchObject({ repeatWeekly: false, breakers: [], domains: [] });
  });

  it('names each refused place in the notification lists', () => {
    expect(
      problems({
        ...base,
        channels: [
          { ...hook, url: '${env:not-a-name}' },
          { ...hook, name: 'OPS', secret: 'short' },
          { name: 'Mail', type: 'email', recipients: [], secret: '${env:X}' },
        ],
        notificationRules: [{ ...rule, channels: [] }],
        maintenanceWindows: [{ name: 'W', startsAt: '2026-01-02T00:00:00Z', endsAt: '2026-01-01T00:00:00Z' }],
      }),
    ).toEqual([
      'channels[0].url: must be a reference ${env:NAME}, NAME of letters, digits and _',
      'channels[1].secret: must be at least 8 characters',
      'channels[2].recipients: name at least one address',
      'channels[2].secret: signs webhook channels only',
      'notificationRules[0].channels: name at least one channel or an escalationPolicy',
      'maintenanceWindows[0].endsAt: must be after the start',
      'channels[1].name: repeats the name of channels[0]',
    ]);
  });
});

describe('channel variables', () => {
  it('upper-cases the name, every other character as _, and tells names apart that come out the same', () => {
    expect(Object.fromEntries(channelVariableStems(['Ops alerts', 'ops-alerts', 'Ops_alerts 2', 'Café', 'pager']))).toEqual({
      'Ops alerts': 'CBH_CHANNEL_OPS_ALERTS',
      'ops-alerts': 'CBH_CHANNEL_OPS_ALERTS_3',
      'Ops_alerts 2': 'CBH_CHANNEL_OPS_ALERTS_2',
      Café: 'CBH_CHANNEL_CAF_',
      pager: 'CBH_CHANNEL_PAGER',
    });
    expect(envReference('CBH_CHANNEL_PAGER_URL')).toBe('${env:CBH_CHANNEL_PAGER_URL}');
  });
});
