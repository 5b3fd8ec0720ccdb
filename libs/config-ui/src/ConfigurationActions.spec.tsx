/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { AuthUser, ImportChange, Permission } from '@cbh/contracts';
import { apiError, authUser, clickAndSettle, fakeApi, polyfillRadix, rowsOf } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { ConfigurationActions } from './ConfigurationActions';

beforeAll(() => {
  polyfillRadix();
  // jsdom's files have no text(); browsers' do
  Blob.prototype.text ??= function (this: Blob) {
    return new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(this);
    });
  };
});

const holder = (permissions: Permission[]) => authUser({ email: 'ops@example.com', role: 'operator', permissions });
const operator = holder(['circuit_breaker_view', 'export_data', 'import_data']);

const DOCUMENT = '{ "version": 1, "breakers": [], "services": [], "domains": [] }';
const YAML_DOCUMENT = 'version: 1\nbreakers: []\nservices: []\ndomains: []\n';

const CHANGES: ImportChange[] = [
  { kind: 'breaker', name: 'payments', action: 'update', fields: ['failureThreshold', 'timeout'] },
  { kind: 'breaker', name: 'search', action: 'create' },
  { kind: 'service', name: 'billing', action: 'unchanged' },
  { kind: 'domain', name: 'shop.example.test', action: 'unchanged' },
];

function configApi(me: AuthUser | null, importRoute: unknown = { changes: CHANGES }) {
  return fakeApi({ 'GET /api/auth/user': me, 'POST /api/import': importRoute });
}

function renderActions() {
  render(
    <Provider store={createAppStore()}>
      <ConfigurationActions />
      <Toaster />
    </Provider>,
  );
}

/** The query of a recorded call, as an object. */
const queryOf = (path: string) => Object.fromEntries(new URL(path, 'http://hub.test').searchParams);

async function openImport() {
  fireEvent.click(await screen.findByRole('button', { name: 'Import' }));
  return screen.findByRole('dialog', { name: 'Import configuration' });
}

function paste(dialog: HTMLElement, text: string) {
  fireEvent.change(within(dialog).getByLabelText('Document'), { target: { value: text } });
}

async function preview(dialog: HTMLElement) {
  await clickAndSettle(within(dialog).getByRole('button', { name: 'Preview changes' }));
}

it('shows nothing to an account with neither export_data nor import_data', async () => {
  const api = configApi(holder(['circuit_breaker_view', 'circuit_breaker_admin']));
  renderActions();
  await waitFor(() => expect(api.callsTo('GET', '/api/auth/user')).toHaveLength(1));
  await act(async () => undefined);
  expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
});

it('offers only what the account holds: Export without import_data', async () => {
  configApi(holder(['export_data']));
  renderActions();
  expect(await screen.findByRole('button', { name: 'Export' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
});

it('downloads the export as YAML or JSON, named hub.yaml or hub.json', async () => {
  configApi(operator);
  renderActions();
  fireEvent.click(await screen.findByRole('button', { name: 'Export' }));
  const dialog = await screen.findByRole('dialog', { name: 'Export configuration' });
  const download = within(dialog).getByRole('link', { name: 'Download' });
  expect(queryOf(download.getAttribute('href')!)).toEqual({ format: 'yaml' });
  expect(new URL(download.getAttribute('href')!, 'http://hub.test').pathname).toBe('/api/export');
  expect(download.getAttribute('download')).toBe('hub.yaml');

  fireEvent.click(within(dialog).getByRole('radio', { name: 'JSON' }));
  expect(queryOf(download.getAttribute('href')!)).toEqual({ format: 'json' });
  expect(download.getAttribute('download')).toBe('hub.json');
});

it('previews a pasted document as a dry run: counts per action and a row per change, nothing applied', async () => {
  const api = configApi(operator);
  renderActions();
  const dialog = await openImport();
  const apply = within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement;
  expect(apply.disabled).toBe(true);

  paste(dialog, DOCUMENT);
  await preview(dialog);

  const table = await within(dialog).findByRole('region', { name: 'Changes' });
  expect(rowsOf(table)).toEqual([
    ['breaker', 'payments', 'update', 'failureThreshold, timeout'],
    ['breaker', 'search', 'create', ''],
  ]);
  const counts = within(within(dialog).getByRole('list', { name: 'Changes by action' })).getAllByRole('listitem');
  expect(counts.map((count) => count.textContent)).toEqual(['create 1', 'update 1', 'delete 0', 'unchanged 2']);

  const posts = api.calls.filter((call) => call.method === 'POST');
  expect(posts).toHaveLength(1);
  expect(queryOf(posts[0]!.path)).toMatchObject({ dryRun: 'true' });
  expect(posts[0]!.body).toEqual(JSON.parse(DOCUMENT));
  expect(apply.disabled).toBe(false);
});

it('lists the unchanged items on request', async () => {
  configApi(operator);
  renderActions();
  const dialog = await openImport();
  paste(dialog, DOCUMENT);
  await preview(dialog);
  fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'Show unchanged items' }));
  const table = within(dialog).getByRole('region', { name: 'Changes' });
  expect(within(table).getByRole('cell', { name: 'shop.example.test' })).toBeTruthy();
  expect(within(table).getAllByRole('row')).toHaveLength(5);
});

it('applies after a confirmation naming how many changes, then says what was done', async () => {
  const api = configApi(operator);
  renderActions();
  const dialog = await openImport();
  paste(dialog, DOCUMENT);
  await preview(dialog);
  fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));

  const confirm = await screen.findByRole('alertdialog', { name: 'Apply 2 changes?' });
  expect(confirm.textContent).toContain('creates 1 item, updates 1 item in one transaction');
  await clickAndSettle(within(confirm).getByRole('button', { name: 'Apply' }));

  const posts = api.calls.filter((call) => call.method === 'POST');
  expect(posts.map((call) => queryOf(call.path).dryRun ?? 'false')).toEqual(['true', 'false']);
  expect(posts[1]!.body).toEqual(JSON.parse(DOCUMENT));
  expect(await screen.findByText('Configuration Applied')).toBeTruthy();
  expect(screen.getByText('1 created, 1 updated, 0 deleted, 2 unchanged.')).toBeTruthy();
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Import configuration' })).toBeNull());
});

it('asks for a new preview once the document or the prune option changes', async () => {
  configApi(operator);
  renderActions();
  const dialog = await openImport();
  paste(dialog, DOCUMENT);
  await preview(dialog);
  const apply = within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement;
  expect(apply.disabled).toBe(false);

  fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Delete items missing from the document' }));
  expect(apply.disabled).toBe(true);
  expect(within(dialog).getByRole('note').textContent).toContain('preview the changes again');
  fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Delete items missing from the document' }));
  expect(apply.disabled).toBe(false);

  paste(dialog, `${DOCUMENT}\n`);
  expect(apply.disabled).toBe(true);
});

it('sends the prune option with the dry run, and shows the deletions it would make', async () => {
  const api = configApi(operator, { changes: [{ kind: 'domain', name: 'old.example.test', action: 'delete' }] });
  renderActions();
  const dialog = await openImport();
  paste(dialog, DOCUMENT);
  fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Delete items missing from the document' }));
  await preview(dialog);
  expect(queryOf(api.calls.find((call) => call.method === 'POST')!.path)).toMatchObject({ dryRun: 'true', prune: 'true' });
  const row = within(await within(dialog).findByRole('region', { name: 'Changes' }))
    .getByRole('cell', { name: 'old.example.test' })
    .closest('tr')!;
  expect(within(row).getByText('delete')).toBeTruthy();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
  expect((await screen.findByRole('alertdialog', { name: 'Apply 1 change?' })).textContent).toContain('deletes 1 item');
});

it("shows the server's 400 under the document, naming the place in it, and allows no apply", async () => {
  configApi(operator, apiError(400, 'breakers[2].failureThreshold: must be at most 20; domains[0]: unknown field owner'));
  renderActions();
  const dialog = await openImport();
  paste(dialog, DOCUMENT);
  await preview(dialog);
  const problems = within(await within(dialog).findByRole('alert', { name: 'Problems' })).getAllByRole('listitem');
  expect(problems.map((problem) => problem.textContent)).toEqual([
    'breakers[2].failureThreshold: must be at most 20',
    'domains[0]: unknown field owner',
  ]);
  expect((within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement).disabled).toBe(true);
  expect(within(dialog).queryByRole('region', { name: 'Changes' })).toBeNull();
});

it("shows the server's 413 for a document over the limit", async () => {
  configApi(operator, apiError(413, 'The document is larger than 1 MB.'));
  renderActions();
  const dialog = await openImport();
  paste(dialog, DOCUMENT);
  await preview(dialog);
  expect((await within(dialog).findByRole('alert', { name: 'Problems' })).textContent).toBe('The document is larger than 1 MB.');
});

it('keeps the dialog and the diff when the apply is refused with 409, with the item and the reason', async () => {
  const api = configApi(operator, () =>
    queryOf(api.calls.at(-1)!.path).dryRun === 'true'
      ? { changes: CHANGES }
      : apiError(409, 'breakers payments: it is in use by a running load test')(undefined),
  );
  renderActions();
  const dialog = await openImport();
  paste(dialog, DOCUMENT);
  await preview(dialog);
  fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
  await clickAndSettle(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Apply' }));

  expect((await within(dialog).findByRole('alert', { name: 'Problems' })).textContent).toBe(
    'breakers payments: it is in use by a running load test',
  );
  expect(screen.queryByRole('alertdialog')).toBeNull();
  expect(within(dialog).getByRole('region', { name: 'Changes' })).toBeTruthy();
});

it('says there is nothing to apply when the hub already matches the document', async () => {
  configApi(operator, { changes: CHANGES.map((change) => ({ kind: change.kind, name: change.name, action: 'unchanged' })) });
  renderActions();
  const dialog = await openImport();
  paste(dialog, DOCUMENT);
  await preview(dialog);
  expect((await within(dialog).findByRole('status')).textContent).toBe('No changes: the hub already matches this document.');
  expect((within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement).disabled).toBe(true);
});

it('reads an uploaded YAML file into the document and sends it as YAML', async () => {
  const api = configApi(operator);
  renderActions();
  const dialog = await openImport();
  const file = new File([YAML_DOCUMENT], 'hub.yaml', { type: 'application/yaml' });
  await act(async () => void fireEvent.change(within(dialog).getByLabelText('Upload a file'), { target: { files: [file] } }));
  await waitFor(() => expect((within(dialog).getByLabelText('Document') as HTMLTextAreaElement).value).toBe(YAML_DOCUMENT));
  await preview(dialog);
  await within(dialog).findByRole('region', { name: 'Changes' });
  expect(api.calls.find((call) => call.method === 'POST')!.body).toBe(YAML_DOCUMENT);
});

it('refuses a file over 1 MB before sending it', async () => {
  const api = configApi(operator);
  renderActions();
  const dialog = await openImport();
  const file = new File(['#'.repeat(1_048_577)], 'huge.yaml');
  await act(async () => void fireEvent.change(within(dialog).getByLabelText('Upload a file'), { target: { files: [file] } }));
  expect(within(dialog).getByRole('alert', { name: 'Problems' }).textContent).toBe(
    'huge.yaml is larger than 1 MB, the most an import reads.',
  );
  expect((within(dialog).getByLabelText('Document') as HTMLTextAreaElement).value).toBe('');
  expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(0);
});
