import { configDocumentSchema, documentProblems } from './config-document';

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
