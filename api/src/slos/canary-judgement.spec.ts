import type { ReleaseView, RemoteLoad, SloView } from '@cbh/contracts';
import { canaryApiForThisFile, dashboardEntry } from '../releases/dashboard-build.test-kit';

// a canary judged by SLOs once it had 4 loads; the people-count rollback is out of reach (100 people at least)
const spec = canaryApiForThisFile({
  CANARY_SLO_MIN_LOADS: '4',
  CANARY_ROLLBACK_VISITORS: '100',
  CANARY_ROLLBACK_PERCENT: '50',
  ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
});
const { post, upload, peopleBySide, canaryOf } = spec;

async function createSlo(name: string, indicator: Record<string, unknown>, target = 99): Promise<SloView> {
  const made = await post('/api/slos', { name, target, window: '30d', indicator });
  expect(made.status).toBe(201);
  return made.json();
}

/** A person's page reporting its loads of `versionId`: rendered, then (when `breaks`) its code threw. */
const report = (versionId: number, breaks: boolean): { loads: RemoteLoad[] } => ({
  loads: [
    { remote: 'mfe_dashboard', entry: dashboardEntry(versionId), ok: true, loadMs: 90 },
    ...(breaks
      ? [
          {
            remote: 'mfe_dashboard' as const,
            entry: dashboardEntry(versionId),
            ok: false,
            afterRender: true as const,
            reason: 'TypeError: x is undefined',
          },
        ]
      : []),
  ],
});

/** Loads of the live version other people reported in the last minutes: `bad` of `total` errors after render. */
const liveLoads = (total: number, bad: number) =>
  spec.api.sql(
    `INSERT INTO remote_loads (remote, version_id, ok, visitor, after_render, at)
     SELECT 'mfe_dashboard', $1, n > $3, 'someone-' || n, n <= $3, now() - interval '2 minutes' FROM generate_series(1, $2) n`,
    [spec.live.id, total, bad],
  );

/** Two people on the canary's side at 99 % (nobody's bucket is 99 but by chance: then the next ones). */
const canarySide = async () => (await peopleBySide()).filter((person) => person.bucket < 99).map((person) => person.cookie);

describe('a canary judged by SLOs', () => {
  let loadsSlo: SloView;

  beforeAll(async () => {
    loadsSlo = await createSlo('Dashboard renders', { kind: 'remote-loads', remote: 'mfe_dashboard' });
  });

  it('names only SLOs over its own remote’s loads, each that exists, at most five', async () => {
    const canary = await upload('canary-named');
    const callsSlo = await createSlo('Checkout calls', { kind: 'breaker-calls', service: 'checkout' });
    const otherRemote = await createSlo('Status renders', { kind: 'remote-loads', remote: 'mfe_status' });
    const refused = async (slos: number[], status: number) => {
      const answer = await post('/api/releases/mfe_dashboard/canary', { versionId: canary.id, percent: 10, slos });
      expect(answer.status).toBe(status);
      return ((await answer.json()) as { message: string }).message;
    };
    expect(await refused([callsSlo.id], 422)).toBe(
      'slos: "Checkout calls" measures breaker-calls, not a remote\'s loads: only an SLO of kind remote-loads can judge a canary',
    );
    expect(await refused([otherRemote.id], 422)).toBe('slos: "Status renders" measures the loads of mfe_status, not of mfe_dashboard');
    expect(await refused([loadsSlo.id, 999_999], 422)).toBe('slos: no SLO has the id 999999');
    expect(await refused([1, 2, 3, 4, 5, 6], 400)).toMatch(/slos: must name at most 5 SLOs/);
    expect(await canaryOf()).toBeNull();

    const started = await post('/api/releases/mfe_dashboard/canary', { versionId: canary.id, percent: 10, slos: [loadsSlo.id] });
    expect(started.status).toBe(200);
    expect(((await started.json()) as ReleaseView).canary).toMatchObject({
      versionId: canary.id,
      slos: [{ id: loadsSlo.id, name: 'Dashboard renders' }],
    });
    const [audit] = await spec.api.sql(`SELECT after FROM audit_entries WHERE action = 'release.canary' ORDER BY id DESC LIMIT 1`);
    expect(audit.after).toMatchObject({ canary: canary.id, slos: [{ id: loadsSlo.id, name: 'Dashboard renders' }] });
    // a canary without SLOs names none
    await post('/api/releases/mfe_dashboard/canary', { versionId: canary.id, percent: 10 });
    expect(await canaryOf()).toMatchObject({ slos: [] });
    await post('/api/releases/mfe_dashboard/canary/abort');
  });

  it('is kept while the live version burns as fast, and rolled back naming the SLO once it burns twice as fast', async () => {
    const canary = await upload('canary-judged');
    await liveLoads(10, 5);
    await post('/api/releases/mfe_dashboard/canary', { versionId: canary.id, percent: 99, slos: [loadsSlo.id] });
    const [first, second] = await canarySide();
    const before = spec.receiver.received.length;

    // two people whose canary rendered then broke: 2 of 4 bad, as bad as the live version's 5 of 10: kept
    for (const person of [first!, second!]) expect((await post('/api/releases/loads', report(canary.id, true), person)).status).toBe(204);
    expect(await canaryOf()).toMatchObject({ versionId: canary.id });
    const [version] = (await spec.api.sql('SELECT count(*)::int AS loads FROM remote_loads WHERE version_id = $1', [canary.id])) as {
      loads: number;
    }[];
    expect(version!.loads).toBe(4);

    // the live version mends (20 more good loads: 5 of 30 bad, 16.7×): the canary's 50× is more than twice that
    await liveLoads(20, 0);
    expect((await post('/api/releases/loads', report(canary.id, false), first)).status).toBe(204);
    const [rolledBack] = (await spec.receiver.waitFor(before + 1, 10_000)).slice(before);
    expect(rolledBack!.body).toMatchObject({
      type: 'release.rolled_back',
      data: {
        remote: 'mfe_dashboard',
        versionId: canary.id,
        liveVersionId: spec.live.id,
        slo: { id: loadsSlo.id, name: 'Dashboard renders' },
        reason:
          'the SLO "Dashboard renders" (99 %) burned its error budget at 40.0× among the canary\'s visitors over the last 10 minutes (2 of 5 loads bad, for 2 people), more than 2 times 16.7× among the live version\'s (5 of 30 bad)',
      },
    });
    expect(await canaryOf()).toBeNull();
    // the screen's figures: the canary's loads were good, two errors came after render
    const releases: ReleaseView[] = await (await spec.api.call('/api/releases', { cookie: spec.admin })).json();
    const shown = releases.find((release) => release.remote === 'mfe_dashboard')!.versions.find((v) => v.id === canary.id)!;
    expect(shown.loads).toMatchObject({ count: 3, failed: 0, errorsAfterRender: 2 });
  });

  it('is held to the budget itself while the live version has too few loads to compare with, and one person cannot roll it back', async () => {
    await spec.api.sql("DELETE FROM remote_loads WHERE remote = 'mfe_dashboard'");
    const canary = await upload('canary-alone');
    await post('/api/releases/mfe_dashboard/canary', { versionId: canary.id, percent: 99, slos: [loadsSlo.id] });
    const [first, second] = await canarySide();
    const before = spec.receiver.received.length;
    // one person, broken twice: 2 of 4 bad, but one person
    for (let i = 0; i < 2; i++) expect((await post('/api/releases/loads', report(canary.id, true), first)).status).toBe(204);
    expect(await canaryOf()).toMatchObject({ versionId: canary.id });
    // a second person: 3 of 6 bad (50×), against no live loads: more than twice the budget's 1×
    expect((await post('/api/releases/loads', report(canary.id, true), second)).status).toBe(204);
    const [rolledBack] = (await spec.receiver.waitFor(before + 1, 10_000)).slice(before);
    expect(rolledBack!.body.data).toMatchObject({
      slo: { id: loadsSlo.id },
      reason:
        'the SLO "Dashboard renders" (99 %) burned its error budget at 50.0× among the canary\'s visitors over the last 10 minutes (3 of 6 loads bad, for 2 people), more than 2 times the budget itself (1.0×: the live version had fewer than 4 loads to compare with)',
    });
    expect(await canaryOf()).toBeNull();
  });
});
