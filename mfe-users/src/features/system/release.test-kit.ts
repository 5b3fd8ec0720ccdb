/**
 * Test-only helpers for the Releases card's specs: sample releases and SLOs, the fake API answering them, and
 * queries into one remote's section. Imported by *.spec.tsx files only.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  BURN_RATE_WINDOWS,
  RETENTION_DEFAULTS,
  type BurnRateWindow,
  type ReleaseView,
  type RemoteVersionView,
  type RetentionView,
  type SloView,
} from '@cbh/contracts';
import { openTab, superAdmin, toastSpy, usersApi } from '../users/test-kit';

const RETENTION: RetentionView = { ...RETENTION_DEFAULTS, lastPrunedAt: null, lastPruned: null };
const HOUR_MS = 60 * 60 * 1000;
export const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR_MS).toISOString();
export const NEXT_NAVIGATION = 'Open pages switch at their next navigation to its screens.';

export function version(id: number, fields: Partial<RemoteVersionView> = {}): RemoteVersionView {
  return {
    id,
    remote: 'mfe_dashboard',
    gitCommit: `${id}ab3f9c0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6`.slice(0, 40),
    uploadedBy: 'Ada Lovelace',
    uploadedAt: hoursAgo(3),
    files: 40,
    bytes: 831_488,
    entryGzipBytes: 8_397,
    loads: { count: 0, failed: 0, activeVisitors: 0, p50Ms: null, p95Ms: null, errorsAfterRender: 0 },
    ...fields,
  };
}

/** Version 12 live, 11 before it, 14 a canary for 10 % of visitors (judged by no SLO), whose code threw 3 errors after rendering. */
export const DASHBOARD: ReleaseView = {
  remote: 'mfe_dashboard',
  liveVersionId: 12,
  previousVersionId: 11,
  canary: { versionId: 14, percent: 10, startedAt: '2026-03-04T09:30:00.000Z', slos: [] },
  updatedAt: '2026-03-04T09:30:00.000Z',
  versions: [
    version(14, {
      loads: { count: 40, failed: 4, activeVisitors: 9, p50Ms: 420, p95Ms: 1_310, errorsAfterRender: 3 },
      uploadedAt: hoursAgo(1),
    }),
    version(13, { gitCommit: null, uploadedBy: null, uploadedAt: hoursAgo(26) }),
    version(12, { loads: { count: 200, failed: 5, activeVisitors: 1, p50Ms: 340, p95Ms: 910, errorsAfterRender: 0 } }),
    version(11),
  ],
};
/** Never released: served from the deployed folder, nothing uploaded. */
export const DOMAINS: ReleaseView = {
  remote: 'mfe_domains',
  liveVersionId: null,
  previousVersionId: null,
  canary: null,
  updatedAt: null,
  versions: [],
};
/** One version, live since the first promote: Rollback goes back to the deployed folder. */
export const USERS: ReleaseView = {
  remote: 'mfe_users',
  liveVersionId: 5,
  previousVersionId: null,
  canary: null,
  updatedAt: '2026-03-01T08:00:00.000Z',
  versions: [version(5, { remote: 'mfe_users' })],
};
export const RELEASES = [DASHBOARD, DOMAINS, USERS];

export function slo(id: number, name: string, indicator: SloView['indicator']): SloView {
  return {
    id,
    name,
    description: null,
    target: 99.5,
    window: '30d',
    indicator,
    service: null,
    sli: 99.9,
    errorBudgetRemaining: 0.8,
    burnRates: Object.fromEntries(BURN_RATE_WINDOWS.map((window) => [window, 0.2])) as Record<BurnRateWindow, number | null>,
    status: 'ok',
    good: 999,
    total: 1_000,
    createdAt: '2026-03-01T08:00:00.000Z',
    updatedAt: '2026-03-01T08:00:00.000Z',
  };
}

/** Two SLOs over the dashboard's loads, one over another remote's, one over breaker calls. */
export const SLOS: SloView[] = [
  slo(31, 'Dashboard loads', { kind: 'remote-loads', remote: 'mfe_dashboard' }),
  slo(32, 'Users loads', { kind: 'remote-loads', remote: 'mfe_users' }),
  slo(33, 'Payments calls', { kind: 'breaker-calls', service: 'payments' }),
  slo(34, 'Dashboard loads (EU)', { kind: 'remote-loads', remote: 'mfe_dashboard' }),
];

export function releasesApi(routes: Record<string, unknown> = {}) {
  return usersApi(superAdmin, {
    'GET /api/system/retention': RETENTION,
    'GET /api/releases': RELEASES,
    'GET /api/slos': SLOS,
    ...routes,
  });
}

export async function openReleases() {
  await screen.findByTestId('user-row-root');
  openTab('System');
  await screen.findByRole('heading', { name: 'Releases' });
  return screen.findByTestId('release-mfe_dashboard');
}

export const remote = (name: string) => within(screen.getByTestId(`release-${name}`));
export const row = (id: number) => within(screen.getByTestId(`release-version-${id}`));
export const cells = (id: number) =>
  row(id)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
/** The Status list of a remote as term → definition. */
export const status = (name: string) =>
  Object.fromEntries(
    remote(name)
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextElementSibling!.textContent]),
  );
export const toasted = (title: string, description: string) =>
  waitFor(() => expect(toastSpy).toHaveBeenCalledWith(expect.objectContaining({ title, description })));
export const noContent = () => new Response(null, { status: 204 });
export const answered = (release: ReleaseView) => () => release;

/** Opens the canary dialog of a version of mfe_dashboard. */
export async function canaryDialog(versionId: number) {
  fireEvent.click(row(versionId).getByRole('button', { name: `Canary… version ${versionId} of mfe_dashboard` }));
  return within(await screen.findByRole('dialog', { name: `Canary of version ${versionId}` }));
}
/** The canary dialog's SLO checkboxes, once the SLOs are read. */
export const sloBoxes = async () => within(await screen.findByRole('group', { name: 'Judged by SLOs' }));
export const canaryBodies = (api: ReturnType<typeof releasesApi>) =>
  api.callsTo('POST', '/api/releases/mfe_dashboard/canary').map((call) => call.body);
