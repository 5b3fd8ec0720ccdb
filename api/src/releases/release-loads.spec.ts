import type { CreatedApiTokenView } from '@cbh/contracts';
import { DEMO_PASSWORD, signIn, TEST_ADMIN } from '../../test/test-api';
import { bucketOf } from './release-state.service';
import { canaryApiForThisFile, dashboardEntry } from './dashboard-build.test-kit';

// a canary failing for half of at least 2 people, 2 of them failing, is rolled back; fewer failing people notify instead
const spec = canaryApiForThisFile({ CANARY_ROLLBACK_VISITORS: '2', CANARY_ROLLBACK_PERCENT: '50', ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' });
const { post, upload, peopleBySide, canaryOf } = spec;
const failure = (versionId: number) => ({
  loads: [{ remote: 'mfe_dashboard', entry: dashboardEntry(versionId), ok: false, reason: 'TypeError: boom' }],
});

/** A sealed visitor cookie the hub put on the side of the dashboard whose entry is `entry`. */
async function visitorGiven(entry: string): Promise<string> {
  for (let i = 0; i < 500; i++) {
    const answer = await fetch(`${spec.api.baseUrl}/remotes.json`);
    const visitor = answer.headers.get('set-cookie')!.split(';')[0]!;
    if (((await answer.json()) as { remotes: { entry: string }[] }).remotes[0]!.entry === entry) return visitor;
  }
  throw new Error(`no visitor was given ${entry}`);
}

const loadsOf = async (versionId: number) =>
  (await spec.api.sql('SELECT visitor, ok FROM remote_loads WHERE version_id = $1 ORDER BY id', [versionId])) as { ok: boolean }[];

describe('remote load reports', () => {
  // a test that fails half-way leaves no canary to the next
  afterEach(async () => {
    await post('/api/releases/mfe_dashboard/canary/abort');
  });

  it('count a load only for the version the hub gave that person, whatever visitor cookie they send', async () => {
    const canary = await upload('canary-a');
    // a person on the live side, the canary given to sides below theirs: the person of the highest side (two accounts
    // of four can share the lowest, side 0, which every canary's share covers)
    const person = (await peopleBySide()).at(-1)!;
    expect(person.bucket).toBeGreaterThan(0);
    const percent = Math.min(person.bucket, 50);
    await post('/api/releases/mfe_dashboard/canary', { versionId: canary.id, percent });
    // a visitor the hub put on the live side, one it put on the canary's, an id chosen to fall on the canary's side,
    // and none at all: signed in, the person's side is their account's whatever they send
    const onLive = await visitorGiven(dashboardEntry(spec.live.id));
    const onCanary = await visitorGiven(dashboardEntry(canary.id));
    let chosen = '';
    for (let i = 0; !chosen; i++) {
      const id = `chosen-visitor-id-${i}`.padEnd(22, 'x').slice(0, 22);
      if (bucketOf(id, 'mfe_dashboard') < percent) chosen = `cbh.visitor=${id}`;
    }
    for (const visitor of [onLive, onCanary, chosen, '']) {
      expect((await post('/api/releases/loads', failure(canary.id), `${person.cookie}; ${visitor}`)).status).toBe(204);
    }
    expect(await loadsOf(canary.id)).toEqual([]);
    expect(await canaryOf()).toMatchObject({ versionId: canary.id });
    // the live side's own load counts
    const ok = { loads: [{ remote: 'mfe_dashboard', entry: dashboardEntry(spec.live.id), ok: true, loadMs: 80 }] };
    expect((await post('/api/releases/loads', ok, `${person.cookie}; ${onLive}`)).status).toBe(204);
    expect(await loadsOf(spec.live.id)).toHaveLength(1);
  });

  it('are refused from a token, a service account included, and bounded per account, remote, reason and batch', async () => {
    const token: CreatedApiTokenView = await (await post('/api/tokens', { name: 'loads', expiresInDays: 1 })).json();
    const asToken = await fetch(`${spec.api.baseUrl}/api/releases/loads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(failure(spec.live.id)),
    });
    expect(asToken.status).toBe(403);
    expect((await asToken.json()).message).toBe(
      'Remote loads are counted for people only: report them from a signed-in browser, not with a token',
    );
    const account = await (await post('/api/service-accounts', { name: 'load-bot', role: 'viewer' })).json();
    const bot: CreatedApiTokenView = await (
      await post(`/api/service-accounts/${account.id}/tokens`, { name: 'x', expiresInDays: 1 })
    ).json();
    const asBot = await fetch(`${spec.api.baseUrl}/api/releases/loads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bot.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(failure(spec.live.id)),
    });
    expect(asBot.status).toBe(403);

    const bounded = [
      { loads: [{ remote: 'mfe_nowhere', entry: '/remotes/mfe-nowhere/mf-manifest.json', ok: true }] },
      { loads: [{ remote: 'mfe_dashboard', entry: dashboardEntry(spec.live.id), ok: false, reason: 'x'.repeat(301) }] },
      { loads: Array.from({ length: 21 }, () => ({ remote: 'mfe_dashboard', entry: dashboardEntry(spec.live.id), ok: true })) },
    ];
    for (const body of bounded) expect((await post('/api/releases/loads', body)).status).toBe(400);

    // an account that sent its minute's reports (this minute and the next, so the test never straddles one) waits
    const reporter = await signIn(spec.api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
    await spec.api.sql(
      `INSERT INTO remote_load_reports (user_id, window_start, reports)
       SELECT id, date_trunc('minute', now()) + m * interval '1 minute', 60 FROM users, generate_series(0, 1) m WHERE email = 'operator@example.com'
       ON CONFLICT (user_id, window_start) DO UPDATE SET reports = 60`,
    );
    const limited = await post('/api/releases/loads', failure(spec.live.id), reporter);
    expect(limited.status).toBe(429);
    expect((await limited.json()).message).toMatch(
      /^This account sent 60 load reports this minute, the most one account may; try again in \d+ s$/,
    );
    expect((await post('/api/releases/loads', failure(spec.live.id))).status).toBe(204);
  });

  it('notify of a canary failing for fewer people than the minimum sample, once, and roll it back at the minimum', async () => {
    const canary = await upload('canary-b');
    await post('/api/releases/mfe_dashboard/canary', { versionId: canary.id, percent: 99 });
    // two people on the canary's side (the operator sent this minute's reports)
    const [first, second] = (await peopleBySide([TEST_ADMIN.email, 'viewer@example.com', 'admin@demo.example.com'])).map(
      (person) => person.cookie,
    );
    const before = spec.receiver.received.length;
    // one person of one failing is 100 %, but one person: the canary stays, and people are told
    expect((await post('/api/releases/loads', failure(canary.id), first)).status).toBe(204);
    expect((await post('/api/releases/loads', failure(canary.id), first)).status).toBe(204);
    const [failing] = (await spec.receiver.waitFor(before + 1, 10_000)).slice(before);
    expect(failing!.body).toMatchObject({
      type: 'release.canary_failing',
      data: {
        remote: 'mfe_dashboard',
        versionId: canary.id,
        liveVersionId: spec.live.id,
        reason: 'it failed to load for 1 of the 1 people who loaded it (100.0 %; the limit is 50 % of at least 2, 2 of them failing)',
      },
    });
    expect(await canaryOf()).toMatchObject({ versionId: canary.id });
    // a second person failing reaches the minimum sample: rolled back by itself
    expect((await post('/api/releases/loads', failure(canary.id), second)).status).toBe(204);
    const [rolledBack] = (await spec.receiver.waitFor(before + 2, 10_000)).slice(before + 1);
    expect(rolledBack!.body).toMatchObject({ type: 'release.rolled_back', data: { versionId: canary.id } });
    expect(await canaryOf()).toBeNull();
    // the failing notice was raised once for this canary
    expect(spec.receiver.received.filter((hook) => hook.body.type === 'release.canary_failing')).toHaveLength(1);
  });
});
