/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, within } from '@testing-library/react';
import type { OrganizationView } from '@cbh/contracts';
import { apiError } from '@cbh/test-support';
import { clickAndSettle, openTab, polyfillRadix, renderPage, superAdmin, userManager, usersApi } from './test-kit';

beforeAll(polyfillRadix);

const ORGANIZATION: OrganizationView = {
  id: 'org-1',
  name: 'Acme',
  invitationDomains: ['example.com'],
  maxTokenDays: 90,
  idleSessionMinutes: null,
};

async function openSettings() {
  await screen.findByTestId('user-row-root');
  openTab('Organisation');
  return within(await screen.findByRole('form', { name: 'Organisation settings' }));
}

it('shows the four settings and saves them', async () => {
  const api = usersApi(superAdmin, {
    'GET /api/organizations': [ORGANIZATION],
    'PATCH /api/organizations/org-1': (body: object) => Response.json({ ...ORGANIZATION, ...body }),
  });
  renderPage();
  const form = await openSettings();
  expect((form.getByLabelText('Name') as HTMLInputElement).value).toBe('Acme');
  expect((form.getByLabelText(/^Invitation domains/) as HTMLTextAreaElement).value).toBe('example.com');
  expect((form.getByLabelText('Longest access token lifetime (days)') as HTMLInputElement).value).toBe('90');
  expect((form.getByLabelText(/^Idle session limit/) as HTMLInputElement).value).toBe('');

  fireEvent.change(form.getByLabelText(/^Invitation domains/), { target: { value: 'example.com\nexample.org' } });
  fireEvent.change(form.getByLabelText('Longest access token lifetime (days)'), { target: { value: '30' } });
  fireEvent.change(form.getByLabelText(/^Idle session limit/), { target: { value: '60' } });
  await clickAndSettle(form.getByRole('button', { name: 'Save' }));

  expect(await screen.findByText('Organisation Updated')).toBeTruthy();
  expect(api.callsTo('PATCH', '/api/organizations/org-1').map((call) => call.body)).toEqual([
    { name: 'Acme', invitationDomains: ['example.com', 'example.org'], maxTokenDays: 30, idleSessionMinutes: 60 },
  ]);
});

it('shows each of the server’s problems under its field', async () => {
  usersApi(superAdmin, {
    'GET /api/organizations': [ORGANIZATION],
    'PATCH /api/organizations/org-1': apiError(
      400,
      'maxTokenDays: must be at most 365 days; idleSessionMinutes: must be at least 5 minutes',
    ),
  });
  renderPage();
  const form = await openSettings();
  fireEvent.change(form.getByLabelText('Longest access token lifetime (days)'), { target: { value: '400' } });
  fireEvent.change(form.getByLabelText(/^Idle session limit/), { target: { value: '1' } });
  await clickAndSettle(form.getByRole('button', { name: 'Save' }));

  const days = form.getByLabelText('Longest access token lifetime (days)');
  expect(days.getAttribute('aria-invalid')).toBe('true');
  expect(document.getElementById(days.getAttribute('aria-describedby')!)!.textContent).toBe('maxTokenDays: must be at most 365 days');
  const idle = form.getByLabelText(/^Idle session limit/);
  expect(document.getElementById(idle.getAttribute('aria-describedby')!)!.textContent).toBe(
    'idleSessionMinutes: must be at least 5 minutes',
  );
  expect(form.getByLabelText('Name').getAttribute('aria-invalid')).toBeNull();
});

it('is a tab for organisation admins only', async () => {
  usersApi(userManager, { 'GET /api/organizations': [ORGANIZATION] });
  renderPage();
  await screen.findByTestId('user-row-root');
  expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).not.toContain('Organisation');
});
