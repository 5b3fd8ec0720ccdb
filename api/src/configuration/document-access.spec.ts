import type { ConfigDocument, ImportResult, Permission } from '@cbh/contracts';
import { apiForThisFile, DEMO_PASSWORD, signIn } from '../../test/test-api';
import { ADMIN_ONLY_LISTS, EVERY_LIST } from './document.test-kit';

/*
 * export_data and import_data move the document; what it lists stays with each list's own permissions: a list its
 * caller may not read is left out of their export, and an item they may not change is refused on import.
 */

const spec = apiForThisFile();

/** A demo account given exactly these permissions (a custom set, as the users screen allows), signed in. */
async function signInWith(email: string, permissions: Permission[]): Promise<string> {
  const [{ id }] = await spec.api.sql('SELECT id FROM users WHERE email = $1', [email]);
  const changed = await spec.api.call(`/api/users/${id}/permissions`, { method: 'PATCH', body: { permissions }, cookie: spec.admin });
  expect(changed.status).toBe(200);
  return signIn(spec.api.baseUrl, email, DEMO_PASSWORD);
}

const exportFor = async (cookie: string): Promise<ConfigDocument> => {
  const response = await spec.api.call('/api/export', { cookie });
  expect(response.status).toBe(200);
  return (await response.json()) as ConfigDocument;
};
const importAs = async (cookie: string, body: unknown, query = '') => {
  const response = await spec.api.call(`/api/import${query}`, { method: 'POST', body, cookie });
  return { status: response.status, answer: (await response.json()) as ImportResult & { message?: string } };
};

/** What an import could change of the breakers, services and domains, and the audit trail's length. */
const hubState = async () => ({
  breakers: await spec.api.sql('SELECT id, name, failure_threshold, source FROM circuit_breaker_configs ORDER BY id'),
  services: await spec.api.sql('SELECT id, name, failure_rate, circuit_breaker_config_id FROM services ORDER BY id'),
  domains: await spec.api.sql('SELECT id, domain FROM domains ORDER BY id'),
  audit: (await spec.api.sql('SELECT count(*)::int AS n FROM audit_entries'))[0].n,
});

beforeAll(async () => {
  const domain = await spec.api.call('/api/domains', { method: 'POST', body: { domain: 'kept.example.test' }, cookie: spec.admin });
  expect(domain.status).toBe(201);
});

it('refuses a viewer holding import_data every breaker or service they would create, change or prune, in a dry run too, changing nothing', async () => {
  const viewer = await signInWith('viewer@example.com', ['dashboard_view', 'circuit_breaker_view', 'export_data', 'import_data']);
  const document = await exportFor(viewer);
  expect(document.breakers.map((breaker) => breaker.name)).toEqual(['Inventory Service', 'Payment Gateway', 'Search API']);
  expect(document.domains).toEqual([]);
  expect(document.omitted).toEqual(['domains', ...ADMIN_ONLY_LISTS]);
  const before = await hubState();

  const payment = document.breakers.findIndex((breaker) => breaker.name === 'Payment Gateway');
  const refusals: [ConfigDocument, string, string][] = [
    [
      { ...document, breakers: [...document.breakers, { ...document.breakers[payment]!, name: 'Rogue breaker' }] },
      '',
      'breakers[3] (Rogue breaker): Requires the circuit_breaker_admin permission to create breakers',
    ],
    [
      { ...document, breakers: document.breakers.map((breaker, at) => (at === payment ? { ...breaker, failureThreshold: 20 } : breaker)) },
      '',
      `breakers[${payment}] (Payment Gateway): Requires the circuit_breaker_admin permission to change breakers`,
    ],
    [
      { ...document, services: document.services.map((service) => ({ ...service, breaker: null })) },
      '',
      'services[0] (Inventory Service): Requires the circuit_breaker_admin permission to change services',
    ],
    [
      { ...document, services: document.services.filter((service) => service.name !== 'Search Service') },
      '?prune=true',
      'service Search Service: Requires the circuit_breaker_admin permission to delete services',
    ],
    [
      { ...document, breakers: document.breakers.filter((breaker) => breaker.name !== 'Search API') },
      '?prune=true',
      'breaker Search API: Requires the circuit_breaker_admin permission to delete breakers',
    ],
    // a list they may not read: naming its items would tell them what the hub has
    [
      { ...document, omitted: undefined, domains: [{ name: 'kept.example.test' }] },
      '',
      'domains: Requires the domain_management permission to import domains: leave the list empty to leave them alone',
    ],
  ];
  for (const [body, query, message] of refusals) {
    for (const dryRun of [false, true]) {
      const refused = await importAs(viewer, body, `${query}${dryRun ? `${query ? '&' : '?'}dryRun=true` : ''}`);
      expect({ status: refused.status, message: refused.answer.message }).toEqual({ status: 403, message });
    }
  }
  expect(await hubState()).toEqual(before);

  // their own export goes back unchanged, and its prune leaves alone the domains they could not see
  const same = await importAs(viewer, document, '?prune=true');
  expect(same.status).toBe(200);
  expect(same.answer.changes.filter((change) => change.action !== 'unchanged')).toEqual([]);
  expect(await hubState()).toEqual(before);
});

it("leaves out of an export_data holder's export the lists they may not read, naming them, and an import of it changes nothing", async () => {
  const dataOnly = await signInWith('operator@example.com', ['export_data', 'import_data']);
  const document = await exportFor(dataOnly);
  expect(document).toEqual({
    version: 1,
    breakers: [],
    services: [],
    domains: [],
    omitted: EVERY_LIST,
  });
  const before = await hubState();
  // an empty list the caller may not read is left alone too, whether or not the document says it was omitted
  for (const body of [document, { ...document, omitted: undefined }]) {
    for (const cookie of [dataOnly, spec.admin]) {
      if (cookie === spec.admin && body.omitted === undefined) continue;
      const applied = await importAs(cookie, body, '?prune=true');
      expect({ status: applied.status, changes: applied.answer.changes }).toEqual({ status: 200, changes: [] });
    }
  }
  expect(await hubState()).toEqual(before);

  const domainAdmin = await signInWith('admin@demo.example.com', ['domain_management', 'export_data', 'import_data']);
  const domains = await exportFor(domainAdmin);
  expect({ domains: domains.domains, breakers: domains.breakers, omitted: domains.omitted }).toEqual({
    domains: [{ name: 'kept.example.test' }],
    breakers: [],
    omitted: ['breakers', 'services', ...ADMIN_ONLY_LISTS],
  });
});

it('refuses a document naming items in a list it says was omitted', async () => {
  const document = await exportFor(spec.admin);
  const refused = await importAs(spec.admin, { ...document, omitted: ['breakers'] });
  expect({ status: refused.status, message: refused.answer.message }).toEqual({
    status: 400,
    message: 'breakers: must be empty, as omitted names it',
  });
});
