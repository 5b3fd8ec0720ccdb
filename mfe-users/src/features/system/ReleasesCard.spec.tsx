/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError } from '@cbh/test-support';
import { clickAndSettle, openTab, polyfillRadix, renderPage, userManager, usersApi, toastSpy } from '../users/test-kit';
import {
  answered,
  canaryBodies,
  canaryDialog,
  cells,
  DASHBOARD,
  NEXT_NAVIGATION,
  noContent,
  openReleases,
  RELEASES,
  releasesApi,
  remote,
  row,
  slo,
  sloBoxes,
  SLOS,
  status,
  toasted,
} from './release.test-kit';

beforeAll(polyfillRadix);
beforeEach(() => sessionStorage.clear());

it('asks nothing of the releases without system_admin', async () => {
  const api = usersApi(userManager, { 'GET /api/releases': RELEASES });
  renderPage();
  await screen.findByTestId('user-row-root');
  expect(screen.queryByRole('tab', { name: 'System' })).toBeNull();
  expect(api.callsTo('GET', '/api/releases')).toEqual([]);
});

it('shows each remote: what is live, what Rollback goes back to, the canary, and its versions marked', async () => {
  releasesApi();
  renderPage();
  await openReleases();

  expect(status('mfe_dashboard')).toEqual({
    Live: 'version 12',
    'Rollback to': 'version 11',
    Canary: expect.stringMatching(/^version 14 to 10 % of visitors since \d+ months? ago/),
  });
  expect(
    remote('mfe_dashboard')
      .getByText(/^version 14 to 10 %/)
      .querySelector('time')
      ?.getAttribute('dateTime'),
  ).toBe(DASHBOARD.canary!.startedAt);
  expect(remote('mfe_dashboard').getByRole('button', { name: 'Promote canary of mfe_dashboard' })).toBeTruthy();
  expect(remote('mfe_dashboard').getByRole('button', { name: 'Abort canary of mfe_dashboard' })).toBeTruthy();

  const table = within(screen.getByRole('region', { name: 'Versions of mfe_dashboard' }));
  expect(table.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
    'Version',
    'Git commit',
    'Uploaded by',
    'Uploaded',
    'Size',
    'Loads',
    'Actions',
  ]);
  expect(cells(14).slice(0, 6)).toEqual([
    '14Canary 10 %',
    '14ab3f9',
    'Ada Lovelace',
    '1 hour ago',
    '812 KBentry 8.2 KB gzip',
    '40 loads, 10 % failed' + 'p50 420 ms · p95 1,310 ms' + '9 people in the last half hour' + '3 errors after render',
  ]);
  expect(cells(13).slice(0, 6)).toEqual(['13', '—', 'Removed account', 'yesterday', '812 KBentry 8.2 KB gzip', 'None yet']);
  expect(cells(12).slice(0, 6)).toEqual([
    '12Live',
    '12ab3f9',
    'Ada Lovelace',
    '3 hours ago',
    '812 KBentry 8.2 KB gzip',
    '200 loads, 2.5 % failed' + 'p50 340 ms · p95 910 ms' + '1 person in the last half hour',
  ]);
  expect(row(14).getByText('14ab3f9').getAttribute('title')).toBe(DASHBOARD.versions[0]!.gitCommit);
  expect(row(12).getByRole('list', { name: 'Status' }).textContent).toBe('Live');

  // nothing was ever released: nothing to roll back, said on the disabled button
  expect(status('mfe_domains')).toEqual({ Live: 'the deployed folder' });
  const rollback = remote('mfe_domains').getByRole('button', { name: 'Rollback mfe_domains' }) as HTMLButtonElement;
  expect(rollback.disabled).toBe(true);
  expect(rollback.parentElement!.getAttribute('data-reason')).toBe('Nothing to roll back: the deployed folder is live');
  expect(remote('mfe_domains').getByText(/No version uploaded yet/).textContent).toBe(
    'No version uploaded yet: npx cbh release push mfe_domains uploads its build.',
  );

  // the live version, with no canary running, is neither promoted again nor a canary of itself
  expect(status('mfe_users')).toEqual({ Live: 'version 5', 'Rollback to': 'the deployed folder' });
  expect((remote('mfe_users').getByRole('button', { name: 'Rollback mfe_users' }) as HTMLButtonElement).disabled).toBe(false);
  const promoteLive = row(5).getByRole('button', { name: 'Promote version 5 of mfe_users' }) as HTMLButtonElement;
  expect(promoteLive.disabled).toBe(true);
  expect(promoteLive.parentElement!.getAttribute('data-reason')).toBe('Version 5 is live already');
  expect((row(5).getByRole('button', { name: 'Canary… version 5 of mfe_users' }) as HTMLButtonElement).disabled).toBe(true);

  expect(screen.getByRole('note').textContent).toContain('npx cbh release rollback <remote>');
  expect(screen.getByRole('note').textContent).toContain('POST /api/releases/<remote>/rollback');
});

it('promotes a version only once the confirmation is accepted, and reads the list again', async () => {
  const api = releasesApi({ 'POST /api/releases/mfe_dashboard/promote': answered({ ...DASHBOARD, liveVersionId: 13, canary: null }) });
  renderPage();
  await openReleases();

  fireEvent.click(row(13).getByRole('button', { name: 'Promote version 13 of mfe_dashboard' }));
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Promote version 13' }));
  expect(
    confirm.getByText(`Make version 13 of mfe_dashboard live for everyone? ${NEXT_NAVIGATION} The canary of version 14 ends.`),
  ).toBeTruthy();
  expect(api.callsTo('POST', '/api/releases/mfe_dashboard/promote')).toHaveLength(0);

  await clickAndSettle(confirm.getByRole('button', { name: 'Promote' }));
  expect(api.callsTo('POST', '/api/releases/mfe_dashboard/promote').map((call) => call.body)).toEqual([{ versionId: 13 }]);
  await toasted('Version Promoted', `Version 13 of mfe_dashboard is live for everyone. ${NEXT_NAVIGATION}`);
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  await waitFor(() => expect(api.callsTo('GET', '/api/releases')).toHaveLength(2));
});

it('promotes the canary from its line, and sends nothing when the confirmation is cancelled', async () => {
  const api = releasesApi({ 'POST /api/releases/mfe_dashboard/promote': answered({ ...DASHBOARD, liveVersionId: 14, canary: null }) });
  renderPage();
  await openReleases();

  fireEvent.click(remote('mfe_dashboard').getByRole('button', { name: 'Promote canary of mfe_dashboard' }));
  let confirm = within(await screen.findByRole('alertdialog', { name: 'Promote version 14' }));
  expect(confirm.getByText(`Make version 14 of mfe_dashboard live for everyone? ${NEXT_NAVIGATION}`)).toBeTruthy();
  // focus starts on Cancel, the safe choice
  expect(document.activeElement).toBe(confirm.getByRole('button', { name: 'Cancel' }));
  await clickAndSettle(confirm.getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  expect(api.callsTo('POST', '/api/releases/mfe_dashboard/promote')).toHaveLength(0);

  fireEvent.click(remote('mfe_dashboard').getByRole('button', { name: 'Promote canary of mfe_dashboard' }));
  confirm = within(await screen.findByRole('alertdialog', { name: 'Promote version 14' }));
  await clickAndSettle(confirm.getByRole('button', { name: 'Promote' }));
  expect(api.callsTo('POST', '/api/releases/mfe_dashboard/promote').map((call) => call.body)).toEqual([{ versionId: 14 }]);
});

it('rolls back after a confirmation naming what goes back live', async () => {
  const api = releasesApi({
    'POST /api/releases/mfe_dashboard/rollback': answered({ ...DASHBOARD, liveVersionId: 11, previousVersionId: 12, canary: null }),
  });
  renderPage();
  await openReleases();

  fireEvent.click(remote('mfe_dashboard').getByRole('button', { name: 'Rollback mfe_dashboard' }));
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Roll back mfe_dashboard' }));
  expect(
    confirm.getByText(
      `Put version 11 of mfe_dashboard back live for everyone, in place of version 12? ${NEXT_NAVIGATION} The canary of version 14 ends too.`,
    ),
  ).toBeTruthy();
  await clickAndSettle(confirm.getByRole('button', { name: 'Roll back' }));
  expect(api.callsTo('POST', '/api/releases/mfe_dashboard/rollback')).toHaveLength(1);
  await toasted('Rolled Back', `mfe_dashboard is back on version 11 for everyone. ${NEXT_NAVIGATION}`);
  await waitFor(() => expect(api.callsTo('GET', '/api/releases')).toHaveLength(2));
});

it('says why a rollback was refused, the server’s reason as a second sentence', async () => {
  releasesApi({ 'POST /api/releases/mfe_users/rollback': apiError(400, 'mfe_users has no live version to roll back') });
  renderPage();
  await openReleases();

  fireEvent.click(remote('mfe_users').getByRole('button', { name: 'Rollback mfe_users' }));
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Roll back mfe_users' }));
  expect(confirm.getByText(/^Put the deployed folder of mfe_users back live for everyone, in place of version 5\?/)).toBeTruthy();
  await clickAndSettle(confirm.getByRole('button', { name: 'Roll back' }));
  await waitFor(() =>
    expect(toastSpy).toHaveBeenCalledWith({
      title: 'Error',
      description: 'mfe_users was not rolled back. mfe_users has no live version to roll back.',
      variant: 'destructive',
    }),
  );
});

it('checks the canary’s share as it is typed, then starts it', async () => {
  const api = releasesApi({
    'POST /api/releases/mfe_dashboard/canary': answered({
      ...DASHBOARD,
      canary: { versionId: 13, percent: 25, startedAt: '2026-03-05T10:00:00.000Z', slos: [] },
    }),
  });
  renderPage();
  await openReleases();

  const dialog = await canaryDialog(13);
  expect(dialog.getByText(/the others keep version 12\. It replaces the canary of version 14\.$/)).toBeTruthy();
  const share = dialog.getByLabelText('Share of visitors (%)') as HTMLInputElement;
  const start = dialog.getByRole('button', { name: 'Start canary' }) as HTMLButtonElement;
  expect(share.value).toBe('10');
  expect(start.disabled).toBe(false);

  for (const refused of ['0', '100', '12.5', '']) {
    fireEvent.change(share, { target: { value: refused } });
    expect(start.disabled).toBe(true);
    const problem = dialog.getByText('Share of visitors: must be a whole number from 1 to 99');
    expect(share.getAttribute('aria-invalid')).toBe('true');
    expect(share.getAttribute('aria-describedby')).toContain(problem.id);
  }
  fireEvent.change(share, { target: { value: '25' } });
  expect(dialog.queryByText(/must be a whole number/)).toBeNull();
  expect(share.getAttribute('aria-invalid')).toBeNull();

  await clickAndSettle(start);
  expect(canaryBodies(api)).toEqual([{ versionId: 13, percent: 25 }]);
  await toasted(
    'Canary Started',
    'Version 13 of mfe_dashboard goes to 25 % of visitors, each kept on their side. Promote it or abort it here.',
  );
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

it('changes the share of the canary running, starting from its share', async () => {
  const api = releasesApi({ 'POST /api/releases/mfe_dashboard/canary': answered(DASHBOARD) });
  renderPage();
  await openReleases();

  const dialog = await canaryDialog(14);
  const share = dialog.getByLabelText('Share of visitors (%)') as HTMLInputElement;
  expect(share.value).toBe('10');
  fireEvent.change(share, { target: { value: '50' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Change share' }));
  expect(canaryBodies(api)).toEqual([{ versionId: 14, percent: 50 }]);
  await waitFor(() => expect(toastSpy).toHaveBeenCalledWith(expect.objectContaining({ title: 'Canary Changed' })));
});

it('keeps the canary dialog open with the server’s reason when the canary is refused', async () => {
  releasesApi({ 'POST /api/releases/mfe_dashboard/canary': apiError(400, 'Version 13 of mfe_dashboard is live already') });
  renderPage();
  await openReleases();

  const dialog = await canaryDialog(13);
  await clickAndSettle(dialog.getByRole('button', { name: 'Start canary' }));
  expect((await dialog.findByRole('alert')).textContent).toBe('Version 13 of mfe_dashboard is live already');
  await toasted('Error', 'The canary of version 13 did not start. Version 13 of mfe_dashboard is live already.');
  expect(screen.getByRole('dialog', { name: 'Canary of version 13' })).toBeTruthy();
  // the reason goes once the share is changed
  fireEvent.change(dialog.getByLabelText('Share of visitors (%)'), { target: { value: '20' } });
  expect(dialog.queryByRole('alert')).toBeNull();
});

const RULE =
  'Rolled back by itself when, over the last 10 minutes, one of them burns its error budget more than 2 times as fast among the canary’s visitors as among the live version’s.';

it('starts a canary judged by an SLO, offering only the SLOs over this remote’s loads', async () => {
  const api = releasesApi({ 'POST /api/releases/mfe_dashboard/canary': answered(DASHBOARD) });
  renderPage();
  await openReleases();

  const dialog = await canaryDialog(13);
  const boxes = await sloBoxes();
  expect(boxes.getAllByRole('checkbox').map((box) => box.parentElement!.textContent)).toEqual(['Dashboard loads', 'Dashboard loads (EU)']);
  expect(boxes.getByText(`Optional, at most 5. ${RULE}`)).toBeTruthy();
  fireEvent.click(boxes.getByLabelText('Dashboard loads'));
  await clickAndSettle(dialog.getByRole('button', { name: 'Start canary' }));
  expect(canaryBodies(api)).toEqual([{ versionId: 13, percent: 10, slos: [31] }]);
});

it('lets a canary be judged by 5 SLOs at most', async () => {
  const many = [1, 2, 3, 4, 5, 6].map((id) => slo(id, `Dashboard loads ${id}`, { kind: 'remote-loads', remote: 'mfe_dashboard' }));
  releasesApi({ 'GET /api/slos': many });
  renderPage();
  await openReleases();

  const dialog = await canaryDialog(13);
  const boxes = await sloBoxes();
  for (const box of boxes.getAllByRole('checkbox')) fireEvent.click(box);
  const start = dialog.getByRole('button', { name: 'Start canary' }) as HTMLButtonElement;
  expect(boxes.getByText('Judged by SLOs: must name at most 5 SLOs')).toBeTruthy();
  expect(start.disabled).toBe(true);
  fireEvent.click(boxes.getByLabelText('Dashboard loads 6'));
  expect(boxes.queryByText(/must name at most/)).toBeNull();
  expect(start.disabled).toBe(false);
});

it('says so when no SLO measures the remote’s loads, and starts the canary without any', async () => {
  const api = releasesApi({ 'GET /api/slos': SLOS.filter((each) => ![31, 34].includes(each.id)) });
  renderPage();
  await openReleases();

  const dialog = await canaryDialog(13);
  expect(
    await dialog.findByText('No SLO measures this remote’s loads: create one on the SLOs page to have the canary judged by it.'),
  ).toBeTruthy();
  expect(dialog.queryByRole('group', { name: 'Judged by SLOs' })).toBeNull();
  await clickAndSettle(dialog.getByRole('button', { name: 'Start canary' }));
  expect(canaryBodies(api)).toEqual([{ versionId: 13, percent: 10 }]);
});

it('shows the SLOs the running canary is judged by, each a link to its page, and drops them when unticked', async () => {
  const slos = [31, 34].map((id) => ({ id, name: SLOS.find((each) => each.id === id)!.name }));
  const judged = { ...DASHBOARD, canary: { ...DASHBOARD.canary!, slos } };
  const api = releasesApi({ 'GET /api/releases': [judged], 'POST /api/releases/mfe_dashboard/canary': answered(judged) });
  renderPage();
  await openReleases();

  expect(status('mfe_dashboard')['Judged by']).toBe(`Dashboard loads, Dashboard loads (EU)${RULE}`);
  expect(
    remote('mfe_dashboard')
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]),
  ).toEqual([
    ['Dashboard loads', '/slos/31'],
    ['Dashboard loads (EU)', '/slos/34'],
  ]);

  // its dialog starts from them; unticking them all sends an empty list, which drops them
  const dialog = await canaryDialog(14);
  const boxes = await sloBoxes();
  expect(boxes.getAllByRole('checkbox').map((box) => (box as HTMLInputElement).checked)).toEqual([true, true]);
  for (const box of boxes.getAllByRole('checkbox')) fireEvent.click(box);
  await clickAndSettle(dialog.getByRole('button', { name: 'Change share' }));
  expect(canaryBodies(api)).toEqual([{ versionId: 14, percent: 10, slos: [] }]);
});

it('aborts the canary', async () => {
  const api = releasesApi({ 'POST /api/releases/mfe_dashboard/canary/abort': answered({ ...DASHBOARD, canary: null }) });
  renderPage();
  await openReleases();

  await clickAndSettle(remote('mfe_dashboard').getByRole('button', { name: 'Abort canary of mfe_dashboard' }));
  expect(api.callsTo('POST', '/api/releases/mfe_dashboard/canary/abort')).toHaveLength(1);
  await toasted('Canary Aborted', 'Everyone gets version 12 of mfe_dashboard again at their next navigation to its screens.');
  await waitFor(() => expect(api.callsTo('GET', '/api/releases')).toHaveLength(2));
});

it('previews a version in this browser, remembers it for the session, and stops the preview', async () => {
  const api = releasesApi({ 'POST /api/releases/mfe_dashboard/pin': noContent });
  renderPage();
  await openReleases();

  await clickAndSettle(row(13).getByRole('button', { name: 'Preview version 13 of mfe_dashboard' }));
  expect(api.callsTo('POST', '/api/releases/mfe_dashboard/pin').map((call) => call.body)).toEqual([{ versionId: 13 }]);
  await toasted(
    'Preview On',
    'This browser alone gets version 13 of mfe_dashboard, for a day or until you stop the preview. Reload the page, or open Dashboard, to see it.',
  );
  expect(await row(13).findByRole('button', { name: 'Stop preview version 13 of mfe_dashboard' })).toBeTruthy();
  expect(row(13).getByRole('list', { name: 'Status' }).textContent).toBe('Preview');
  expect(status('mfe_dashboard').Preview).toMatch(/^version 13 in this browser until /);
  // one version of a remote is previewed at a time: the others keep their Preview
  expect(row(14).getByRole('button', { name: 'Preview version 14 of mfe_dashboard' })).toBeTruthy();

  // the cookie cannot be read: the tab remembers the preview for as long as the cookie lasts
  cleanup();
  renderPage();
  await openReleases();
  expect(row(13).getByRole('button', { name: 'Stop preview version 13 of mfe_dashboard' })).toBeTruthy();

  await clickAndSettle(row(13).getByRole('button', { name: 'Stop preview version 13 of mfe_dashboard' }));
  expect(api.callsTo('POST', '/api/releases/mfe_dashboard/pin').map((call) => call.body)).toEqual([{ versionId: 13 }, { versionId: null }]);
  await toasted(
    'Preview Ended',
    'This browser gets what everyone gets of mfe_dashboard again. Reload the page, or open Dashboard, to see it.',
  );
  expect(await row(13).findByRole('button', { name: 'Preview version 13 of mfe_dashboard' })).toBeTruthy();
  expect(status('mfe_dashboard').Preview).toBeUndefined();
});

it('tells to reload for a preview of the remote that draws this screen, and keeps no preview the hub refused', async () => {
  releasesApi({
    'POST /api/releases/mfe_users/pin': noContent,
    'POST /api/releases/mfe_dashboard/pin': apiError(404, 'No version 13 of mfe_dashboard'),
  });
  renderPage();
  await openReleases();

  await clickAndSettle(row(5).getByRole('button', { name: 'Preview version 5 of mfe_users' }));
  await toasted(
    'Preview On',
    'This browser alone gets version 5 of mfe_users, for a day or until you stop the preview. Reload the page to see it.',
  );

  await clickAndSettle(row(13).getByRole('button', { name: 'Preview version 13 of mfe_dashboard' }));
  await toasted('Error', 'Version 13 of mfe_dashboard is not previewed. No version 13 of mfe_dashboard.');
  expect(row(13).getByRole('button', { name: 'Preview version 13 of mfe_dashboard' })).toBeTruthy();
});

it('says so when the releases could not be read, and keeps the retention settings', async () => {
  releasesApi({ 'GET /api/releases': apiError(403, 'Requires the system_admin permission') });
  renderPage();
  await screen.findByTestId('user-row-root');
  openTab('System');
  expect((await screen.findByText(/The releases could not be loaded/)).textContent).toBe(
    'The releases could not be loaded. Requires the system_admin permission',
  );
  expect(screen.getByRole('heading', { name: 'Data Retention' })).toBeTruthy();
});
