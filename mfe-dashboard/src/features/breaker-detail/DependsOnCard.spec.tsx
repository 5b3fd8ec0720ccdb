/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, within } from '@testing-library/react';
import type { BreakerDependencies, BreakerDependenciesView } from '@cbh/contracts';
import { apiError, authUser, clickAndSettle } from '@cbh/test-support';
import { admin, breakerApi, renderPage, viewer } from './test-kit';

// no polyfillRadix: its ResizeObserver would make the charts draw on a canvas, which jsdom lacks

const DEPENDS: BreakerDependenciesView = {
  breakerId: 5,
  dependsOn: [
    { kind: 'domain', id: 1, name: 'example.com' },
    { kind: 'breaker', id: 6, name: 'Inventory' },
    { kind: 'service', id: null, name: 'checkout' },
  ],
  quietedBy: { groupId: 12, title: 'Domain example.com is down' },
};
const DOMAINS = [
  { id: 1, domain: 'example.com', status: 'active', registrar: null, expiresAt: null, createdAt: '2026-05-01T10:00:00.000Z' },
  { id: 2, domain: 'shop.example.com', status: 'active', registrar: null, expiresAt: null, createdAt: '2026-05-01T10:00:00.000Z' },
];
/** circuit_breaker_admin and domain_management: may pick domains too. */
const domainAdmin = { ...admin, permissions: [...admin.permissions, 'domain_management' as const] };

const card = () => within(screen.getByRole('region', { name: 'Depends on' }));
/** The card, once the page around it has drawn. */
const cardShown = async () => within(await screen.findByRole('region', { name: 'Depends on' }));
const dialog = () => within(screen.getByRole('dialog', { name: 'What Payments depends on' }));
const pick = (label: string, value: string) => {
  fireEvent.change(dialog().getByLabelText(label), { target: { value } });
  fireEvent.keyDown(dialog().getByLabelText(label), { key: 'Enter' });
};

/** The API keeps what is PUT and answers GET with it; each body is recorded. */
function dependenciesApi(user: typeof admin, start: BreakerDependenciesView = DEPENDS) {
  let kept = start;
  return breakerApi(user, {
    'GET /api/domains': DOMAINS,
    'GET /api/circuit-breakers/5/dependencies': () => kept,
    'PUT /api/circuit-breakers/5/dependencies': (body: unknown) => {
      const names: Record<string, string> = {
        'domain:1': 'example.com',
        'domain:2': 'shop.example.com',
        'breaker:6': 'Inventory',
        'breaker:7': 'charge-card',
      };
      kept = {
        breakerId: 5,
        dependsOn: (body as BreakerDependencies).dependsOn.map((parent) =>
          parent.kind === 'service'
            ? { kind: 'service', id: null, name: parent.name }
            : { kind: parent.kind, id: parent.id, name: names[`${parent.kind}:${parent.id}`] ?? '?' },
        ),
        quietedBy: null,
      };
      return kept;
    },
  });
}

it('lists the parents by kind and name with links, and the alert group its events join', async () => {
  dependenciesApi(viewer);
  renderPage();
  const list = within(await (await cardShown()).findByRole('list', { name: 'What it depends on' }));
  expect(list.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
    'Domainexample.com',
    'BreakerInventory',
    'Servicecheckout',
  ]);
  expect(list.getByRole('link', { name: 'Inventory' }).getAttribute('href')).toBe('/circuit-breakers/6');
  // a viewer may not open the domains page: the domain stays text
  expect(list.queryByRole('link', { name: 'example.com' })).toBeNull();
  expect(card().getByRole('note').textContent).toBe('Its events join alert group 12: Domain example.com is down');
  expect(card().getByRole('link', { name: 'alert group 12: Domain example.com is down' }).getAttribute('href')).toBe('/on-call/groups/12');
  expect(card().queryByRole('button', { name: 'Edit dependencies' })).toBeNull();
});

it('links a domain to the domains page for a holder of domain_management', async () => {
  dependenciesApi(domainAdmin);
  renderPage();
  const list = within(await (await cardShown()).findByRole('list', { name: 'What it depends on' }));
  expect(list.getByRole('link', { name: 'example.com' }).getAttribute('href')).toBe('/domains');
});

it('saves the parents chosen: domains and breakers by id, services by name', async () => {
  const api = dependenciesApi(domainAdmin, { breakerId: 5, dependsOn: [], quietedBy: null });
  renderPage();
  expect(await (await cardShown()).findByText('Nothing: its events open alert groups of their own.')).toBeTruthy();
  fireEvent.click(card().getByRole('button', { name: 'Edit dependencies' }));
  await screen.findByRole('dialog', { name: 'What Payments depends on' });
  const save = dialog().getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  expect(save.disabled).toBe(true);

  pick('Domains', 'shop.example.com');
  pick('Breakers', 'agent:checkout/charge-card');
  pick('Services', 'orders');
  await clickAndSettle(save);

  expect(api.callsTo('PUT', '/api/circuit-breakers/5/dependencies').map((call) => call.body)).toEqual([
    {
      dependsOn: [
        { kind: 'domain', id: 2 },
        { kind: 'breaker', id: 7 },
        { kind: 'service', name: 'orders' },
      ],
    },
  ]);
  expect(await screen.findByText('Dependencies Saved')).toBeTruthy();
  expect(screen.queryByRole('dialog')).toBeNull();
  const list = within(await (await cardShown()).findByRole('list', { name: 'What it depends on' }));
  expect(list.getByRole('link', { name: 'charge-card' }).getAttribute('href')).toBe('/circuit-breakers/7');
});

it('keeps the domains as they are for an admin who may not list domains, and refuses a name that is nothing', async () => {
  const api = dependenciesApi(admin);
  renderPage();
  await (await cardShown()).findByRole('list', { name: 'What it depends on' });
  fireEvent.click(card().getByRole('button', { name: 'Edit dependencies' }));
  await screen.findByRole('dialog', { name: 'What Payments depends on' });
  expect(dialog().queryByLabelText('Domains')).toBeNull();
  expect(dialog().getByText('Domains: example.com (kept; choosing domains needs domain_management).')).toBeTruthy();
  // the breaker is offered by the name rules give it; it cannot depend on itself
  expect(
    dialog()
      .getAllByTestId('combobox-chip')
      .map((chip) => chip.textContent),
  ).toEqual(['Inventory×', 'checkout×']);

  pick('Breakers', 'Payments');
  expect(dialog().getByText('Payments: no breaker of the hub is named so; pick one from the list.')).toBeTruthy();
  expect(dialog().getByText('Breakers: only breakers the hub holds can be saved: remove the one marked')).toBeTruthy();
  const save = dialog().getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  expect(save.disabled).toBe(true);
  fireEvent.click(dialog().getByRole('button', { name: 'Remove Payments' }));
  fireEvent.click(dialog().getByRole('button', { name: 'Remove Inventory' }));
  pick('Services', 'Not A Service');
  expect(dialog().getByText('Services: Not A Service: must be lower-case letters, digits and hyphens')).toBeTruthy();
  fireEvent.click(dialog().getByRole('button', { name: 'Remove Not A Service' }));
  await clickAndSettle(save);
  expect(api.callsTo('PUT', '/api/circuit-breakers/5/dependencies').map((call) => call.body)).toEqual([
    {
      dependsOn: [
        { kind: 'domain', id: 1 },
        { kind: 'service', name: 'checkout' },
      ],
    },
  ]);
});

it('shows the refusal of the API in the dialog, which stays open', async () => {
  breakerApi(authUser({ email: 'ada@example.com', role: 'admin', permissions: admin.permissions }), {
    'GET /api/circuit-breakers/5/dependencies': { breakerId: 5, dependsOn: [], quietedBy: null },
    'PUT /api/circuit-breakers/5/dependencies': apiError(400, 'dependsOn: a breaker cannot depend on a breaker that depends on it'),
  });
  renderPage();
  fireEvent.click(await (await cardShown()).findByRole('button', { name: 'Edit dependencies' }));
  await screen.findByRole('dialog', { name: 'What Payments depends on' });
  pick('Breakers', 'Inventory');
  await clickAndSettle(dialog().getByRole('button', { name: 'Save' }));
  expect((await dialog().findByRole('alert')).textContent).toContain('a breaker cannot depend on a breaker that depends on it');
});
