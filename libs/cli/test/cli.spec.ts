import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import {
  RULE_DEFAULTS,
  type BreakerConfigView,
  type ChannelView,
  type ConfigDocument,
  type CreatedApiTokenView,
  type TestDeliveryView,
} from '@cbh/contracts';
import { signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../api/test/test-api';
import { startWebhookReceiver } from '../../../api/test/webhook-receiver';
import { freePort } from '../../../tools/testing/free-port';
import { buildCli, ROOT, runCli, type Run } from './cli.test-kit';

/**
 * `cbh` as a CI job runs it: the built bundle in a child process, against the real API on PostgreSQL, authenticated
 * by a token made through the API.
 */
const work = mkdtempSync(path.join(tmpdir(), 'cbh-cli-'));
const bundle = path.join(work, 'dist/cbh.js');

let api: TestApi;
let admin: string;
let token: string;

beforeAll(async () => {
  buildCli(path.dirname(bundle));
  // channels may call a receiver on loopback
  api = await startTestApi({ ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' });
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  token = (await createToken()).token;
}, 120_000);
afterAll(async () => {
  await api?.stop();
});

async function createToken(permissions?: string[]): Promise<CreatedApiTokenView> {
  const response = await api.call('/api/tokens', { method: 'POST', cookie: admin, body: { name: 'ci', expiresInDays: 7, permissions } });
  expect(response.status).toBe(201);
  return response.json();
}

/** `cbh ARGS` in the scratch directory with CBH_URL and CBH_TOKEN set (or as given), and what it printed. */
function cbh(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return runCli(bundle, work, args, { CBH_URL: api.baseUrl, CBH_TOKEN: token, ...env });
}

/**
 * Writes `document` as YAML to `file` in the work folder, and says where the hub's refusal should point: the line
 * (from 1) of the first row holding `marker`, and the column of `at` in that row.
 */
function writeYaml(file: string, document: unknown, marker: string, at = marker) {
  const text = stringify(document);
  writeFileSync(path.join(work, file), text);
  const lines = text.split('\n');
  const index = lines.findIndex((row) => row.includes(marker));
  return { line: index + 1, column: lines[index]!.indexOf(at) + 1 };
}

const diffLines = (run: Run) => run.stdout.split('\n').filter((line) => /^[+~-] /.test(line));

async function breakers(): Promise<BreakerConfigView[]> {
  return (await api.call('/api/circuit-breakers', { cookie: admin })).json();
}

describe('configuration as code', () => {
  it('exports, diffs exactly the edited items (exit 2), applies them, and then diffs to nothing (exit 0)', async () => {
    const exported = await cbh(['export', '--format', 'yaml']);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toBe('');
    const document = parse(exported.stdout) as ConfigDocument;
    expect(document.version).toBe(1);
    expect(document.breakers.map((breaker) => breaker.name)).toEqual(expect.arrayContaining(['Payment Gateway', 'Search API']));
    // JSON by default, the same document
    const json = await cbh(['export']);
    expect(JSON.parse(json.stdout)).toEqual(document);

    const edited = document.breakers.find((breaker) => breaker.name === 'Payment Gateway')!;
    edited.failureThreshold = edited.failureThreshold === 9 ? 8 : 9;
    document.breakers.push({
      name: 'cli-added',
      type: 'simple',
      failureThreshold: 4,
      timeout: 30_000,
      recoveryTime: 60_000,
      successThreshold: 2,
    });
    writeFileSync(path.join(work, 'hub.yaml'), stringify(document));

    const diff = await cbh(['diff', 'hub.yaml']);
    expect(diff.code).toBe(2);
    expect(diffLines(diff).sort()).toEqual(['+ breaker cli-added', '~ breaker Payment Gateway: failureThreshold']);
    expect(diff.stdout).toMatch(/^2 changes: 1 to create, 1 to update \(\d+ unchanged\)$/m);
    // the dry run changed nothing
    expect((await breakers()).map((breaker) => breaker.name)).not.toContain('cli-added');

    const applied = await cbh(['apply', 'hub.yaml']);
    expect(applied.code).toBe(0);
    expect(diffLines(applied).sort()).toEqual(['+ breaker cli-added', '~ breaker Payment Gateway: failureThreshold']);
    expect(applied.stdout).toMatch(/^Applied 2 changes: 1 created, 1 updated \(\d+ unchanged\)$/m);
    // progress goes to stderr (one plain line, stderr not being a terminal), keeping stdout for the changes
    expect(applied.stderr).toBe(
      `Applying hub.yaml (${document.breakers.length + document.services.length + document.domains.length} items) to ${api.baseUrl}…\n`,
    );
    const after = await breakers();
    expect(after.find((breaker) => breaker.name === 'Payment Gateway')!.failureThreshold).toBe(edited.failureThreshold);
    expect(after.find((breaker) => breaker.name === 'cli-added')).toMatchObject({ failureThreshold: 4, successThreshold: 2 });

    const again = await cbh(['diff', 'hub.yaml']);
    expect(again.code).toBe(0);
    expect(diffLines(again)).toEqual([]);
    expect(again.stdout).toMatch(/^No changes: the hub already matches the document \(\d+ unchanged\)$/m);
  });

  it('deletes what the file leaves out only with --prune, and a prune a running load test refuses changes nothing', async () => {
    const document = parse((await cbh(['export', '--format', 'yaml'])).stdout) as ConfigDocument;
    document.breakers = document.breakers.filter((breaker) => breaker.name !== 'cli-added');
    writeFileSync(path.join(work, 'pruned.yaml'), stringify(document));

    expect((await cbh(['diff', 'pruned.yaml'])).code).toBe(0);
    const diff = await cbh(['diff', 'pruned.yaml', '--prune']);
    expect(diff.code).toBe(2);
    expect(diffLines(diff)).toEqual(['- breaker cli-added']);
    expect(diff.stdout).toMatch(/^1 change: 1 to delete \(\d+ unchanged\)$/m);

    const id = (await breakers()).find((breaker) => breaker.name === 'cli-added')!.id;
    const started = await api.call('/api/test-sessions', {
      method: 'POST',
      cookie: admin,
      body: { configId: id, failureRate: 10, requestRate: 1, duration: 1 },
    });
    expect(started.status).toBe(201);
    const refused = await cbh(['apply', 'pruned.yaml', '--prune']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^cbh: The hub refused POST \/api\/import\?prune=true \(409\): .*cli-added.*load test running.*\nNothing was applied: an import changes everything or nothing\.\n$/m,
    );
    expect((await breakers()).map((breaker) => breaker.name)).toContain('cli-added');

    expect((await api.call(`/api/test-sessions/${(await started.json()).id}/stop`, { method: 'POST', cookie: admin })).status).toBeLessThan(
      300,
    );
    const applied = await cbh(['apply', 'pruned.yaml', '--prune']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/^Applied 1 change: 1 deleted \(\d+ unchanged\)$/m);
    expect((await breakers()).map((breaker) => breaker.name)).not.toContain('cli-added');
  });

  it('refuses a document with one bad item, naming its line and path, and changes nothing (exit 1)', async () => {
    const before = (await cbh(['export'])).stdout;
    const document = JSON.parse(before) as ConfigDocument;
    document.breakers[1]!.failureThreshold = 99;
    document.breakers.push({
      name: 'never-created',
      type: 'simple',
      failureThreshold: 4,
      timeout: 30_000,
      recoveryTime: 60_000,
      successThreshold: 2,
    });
    const { line, column } = writeYaml('bad.yaml', document, 'failureThreshold: 99', '99');

    const refused = await cbh(['apply', 'bad.yaml']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      `cbh: The hub refused bad.yaml:\nbad.yaml:${line}:${column}: breakers[1].failureThreshold: must be at most 20`,
    );
    expect((await cbh(['export'])).stdout).toBe(before);

    // a file that is not even YAML is refused before anything is sent
    writeFileSync(path.join(work, 'broken.yaml'), 'version: 1\nbreakers: [\n');
    const broken = await cbh(['diff', 'broken.yaml']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^cbh: broken\.yaml:\d+:\d+: .+; nothing was sent to the hub\n$/);
  });

  it('says which URL it could not reach, which token was refused and which permission is missing (exit 1)', async () => {
    const port = await freePort();
    const unreachable = await cbh(['export'], { CBH_URL: `http://127.0.0.1:${port}` });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toBe(
      `cbh: Cannot reach the hub at http://127.0.0.1:${port} (CBH_URL): the connection was refused (is the hub running, and is the port right?)\n`,
    );

    const elsewhere = await cbh(['diff', path.join(ROOT, 'examples/ci-config/hub.yaml')], { CBH_URL: `${api.baseUrl}/hub` });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(
      new RegExp(`^cbh: ${api.baseUrl}/hub has no POST /api/import\\?dryRun=true \\(404: .*\\): is CBH_URL the hub's address\\?$`, 'm'),
    );

    // past the hub's 1 MB, refused before it is read
    writeFileSync(path.join(work, 'huge.json'), JSON.stringify({ version: 1, padding: 'x'.repeat(1_100_000) }));
    const huge = await cbh(['diff', 'huge.json']);
    expect(huge.code).toBe(1);
    expect(huge.stderr).toMatch(/^cbh: huge\.json is too large for the hub \(413\): The request body is larger than 1024 KB$/m);

    const revoked = await createToken();
    expect((await api.call(`/api/tokens/${revoked.id}`, { method: 'DELETE', cookie: admin })).status).toBe(204);
    const refused = await cbh(['export'], { CBH_TOKEN: revoked.token });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('cbh: The hub refused the token in CBH_TOKEN (401): The access token is not valid\n');

    const viewer = await createToken(['circuit_breaker_view']);
    const forbidden = await cbh(['export'], { CBH_TOKEN: viewer.token });
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toBe(
      'cbh: Not allowed (403): Requires the export_data permission; the token, or the account it belongs to, lacks it\n',
    );

    const unset = await cbh(['export'], { CBH_TOKEN: undefined });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toMatch(/^cbh: CBH_TOKEN is not set/);
  });
});

describe('breakers by name', () => {
  it('forces open the breakers named, and nothing when one name is unknown', async () => {
    const refused = await cbh(['breakers', 'force-open', 'Search API', 'no-such-breaker']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('cbh: No breaker named "no-such-breaker" on the hub; nothing was changed\n');
    expect((await breakers()).filter((breaker) => breaker.override !== 'none')).toEqual([]);

    const opened = await cbh(['breakers', 'force-open', 'Search API', 'Inventory Service']);
    expect(opened.code).toBe(0);
    expect(opened.stdout).toBe('✓ Search API\n✓ Inventory Service\n2 breakers forced open\n');
    const byName = new Map((await breakers()).map((breaker) => [breaker.name, breaker]));
    for (const name of ['Search API', 'Inventory Service'])
      expect(byName.get(name)).toMatchObject({ state: 'OPEN', override: 'forced-open' });
    expect(byName.get('Payment Gateway')).toMatchObject({ override: 'none' });

    // names are matched whatever their letter case, as the hub keeps them unique
    const reset = await cbh(['breakers', 'reset', 'search api']);
    expect(reset.stdout).toBe('✓ Search API\n1 breaker reset\n');
    expect((await breakers()).find((breaker) => breaker.name === 'Search API')).toMatchObject({ state: 'CLOSED', override: 'none' });
  });
});

describe('the CI example', () => {
  it('is a document the hub takes: its diff against a fresh hub lists its items to create (exit 2)', async () => {
    const diff = await cbh(['diff', path.join(ROOT, 'examples/ci-config/hub.yaml')]);
    expect(diff.stderr).not.toContain('cbh:');
    expect(diff.code).toBe(2);
    expect(diffLines(diff)).toEqual(
      expect.arrayContaining(['+ breaker checkout-api', '+ service Checkout', '+ domain shop.example.com', '+ domain status.example.com']),
    );
  });
});

describe('notification channels in the file', () => {
  const SECRET = 'whsec-ci-and-the-receiver-share';

  it('fills in ${env:…} from its own environment; a variable left unset keeps what the hub has, and is refused for a new channel', async () => {
    const receiver = await startWebhookReceiver({ secret: SECRET });
    try {
      const document = parse((await cbh(['export', '--format', 'yaml'])).stdout) as ConfigDocument;
      expect(document.channels).toEqual([]);
      document.channels = [
        { name: 'CI hook', type: 'webhook', url: '${env:CBH_CHANNEL_CI_HOOK_URL}', secret: '${env:CBH_CHANNEL_CI_HOOK_SECRET}' },
      ];
      document.notificationRules = [
        {
          name: 'CI opened',
          enabled: true,
          events: ['breaker.opened'],
          channels: ['ci HOOK'],
          breakers: ['Search API'],
          breakerTypes: [],
          domains: [],
          severities: [],
          ...RULE_DEFAULTS,
        },
      ];
      const { line } = writeYaml('notify.yaml', document, 'url: ${env:CBH_CHANNEL_CI_HOOK_URL}');

      const unset = await cbh(['diff', 'notify.yaml']);
      expect(unset.code).toBe(1);
      expect(unset.stderr).toContain(
        `notify.yaml:${line}:10: channels[0].url: CBH_CHANNEL_CI_HOOK_URL is not set, so the hub keeps the value it has (a new channel needs one)\n`,
      );
      expect(unset.stderr).toContain(
        `cbh: The hub refused notify.yaml:\nnotify.yaml:${line}:10: channels[0].url: \${env:CBH_CHANNEL_CI_HOOK_URL} is not set where the document was read: set it or give the URL\n`,
      );

      const env = { CBH_CHANNEL_CI_HOOK_URL: `${receiver.url}?from=ci`, CBH_CHANNEL_CI_HOOK_SECRET: SECRET };
      const applied = await cbh(['apply', 'notify.yaml'], env);
      expect(applied.code).toBe(0);
      expect(diffLines(applied)).toEqual(['+ channel CI hook', '+ notificationRule CI opened']);
      expect(applied.stdout + applied.stderr).not.toContain(SECRET);

      // the hub has the URL and the secret from the environment: its test delivery reaches the receiver, signed
      const channels: ChannelView[] = await (await api.call('/api/notification-channels', { cookie: admin })).json();
      const channel = channels.find((each) => each.name === 'CI hook')!;
      const test = await api.call(`/api/notification-channels/${channel.id}/test`, { method: 'POST', cookie: admin });
      expect(((await test.json()) as TestDeliveryView).status).toBe('delivered');
      expect(receiver.received.at(-1)).toMatchObject({ path: '/hook?from=ci', signatureValid: true });

      // the export holds references, never the values; it diffs to nothing with the variables set or not
      const exported = await cbh(['export', '--format', 'yaml']);
      expect(exported.stdout).toContain('    url: ${env:CBH_CHANNEL_CI_HOOK_URL}\n    secret: ${env:CBH_CHANNEL_CI_HOOK_SECRET}\n');
      expect(exported.stdout).not.toContain(receiver.url);
      expect(exported.stdout).not.toContain(SECRET);
      writeFileSync(path.join(work, 'exported.yaml'), exported.stdout);
      expect((await cbh(['diff', 'exported.yaml'], env)).code).toBe(0);
      const kept = await cbh(['diff', 'exported.yaml']);
      expect(kept.code).toBe(0);
      expect(kept.stderr).toContain('channels[0].secret: CBH_CHANNEL_CI_HOOK_SECRET is not set, so the hub keeps the value it has');

      // a URL changed in the environment is an update of the channel's url, its value never printed
      const moved = await cbh(['diff', 'exported.yaml'], { ...env, CBH_CHANNEL_CI_HOOK_URL: `${receiver.url}?from=elsewhere` });
      expect(moved.code).toBe(2);
      expect(diffLines(moved)).toEqual(['~ channel CI hook: url']);
      expect(moved.stdout + moved.stderr).not.toContain('elsewhere');
    } finally {
      await receiver.stop();
    }
  });

  it("fills each channel's url and secret only from its own CBH_CHANNEL_<NAME>_URL and _SECRET: another channel's is refused before anything is sent", async () => {
    const env = { CBH_CHANNEL_OPS_URL: 'http://127.0.0.1:9/ops-credential', CBH_CHANNEL_OPS_SECRET: 'the-ops-secret' };
    const document = (
      evil: { url: string; secret?: string },
      ops = { url: '${env:CBH_CHANNEL_OPS_URL}', secret: '${env:CBH_CHANNEL_OPS_SECRET}' },
    ) => ({
      version: 1,
      breakers: [],
      services: [],
      domains: [],
      channels: [
        { name: 'Ops', type: 'webhook', ...ops },
        { name: 'Pull request', type: 'webhook', ...evil },
      ],
    });
    const attempts: [string, object, string][] = [
      // a pull request's channel pointing at its author's receiver, signed with the Ops channel's secret
      [
        'channels[1].secret',
        document({ url: 'https://attacker.example/hook', secret: '${env:CBH_CHANNEL_OPS_SECRET}' }),
        "cbh fills in here only the channel's own CBH_CHANNEL_PULL_REQUEST_SECRET, not CBH_CHANNEL_OPS_SECRET",
      ],
      [
        'channels[1].url',
        document({ url: '${env:CBH_CHANNEL_OPS_URL}' }),
        "the channel's own CBH_CHANNEL_PULL_REQUEST_URL, not CBH_CHANNEL_OPS_URL",
      ],
      // a channel's own secret where its URL goes (the hub's refusal would show it)
      [
        'channels[0].url',
        document(
          { url: 'https://attacker.example/hook' },
          { url: '${env:CBH_CHANNEL_OPS_SECRET}', secret: '${env:CBH_CHANNEL_OPS_SECRET}' },
        ),
        "the channel's own CBH_CHANNEL_OPS_URL, not CBH_CHANNEL_OPS_SECRET",
      ],
    ];
    for (const [place, body, refusal] of attempts) {
      writeFileSync(path.join(work, 'pr.yaml'), stringify(body));
      for (const command of ['diff', 'apply']) {
        const run = await cbh([command, 'pr.yaml'], env);
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(new RegExp(`^cbh: pr\\.yaml:\\d+:\\d+: ${place.replace(/[[\].]/g, '\\$&')}: `));
        expect(run.stderr).toContain(`${refusal}; nothing was sent to the hub`);
        expect(run.stdout + run.stderr).not.toContain(env.CBH_CHANNEL_OPS_SECRET);
      }
    }
    const channels: ChannelView[] = await (await api.call('/api/notification-channels', { cookie: admin })).json();
    expect(channels.map((channel) => channel.name)).not.toContain('Pull request');

    // each channel with its own variables passes
    writeFileSync(path.join(work, 'pr.yaml'), stringify(document({ url: '${env:CBH_CHANNEL_PULL_REQUEST_URL}' })));
    const own = await cbh(['diff', 'pr.yaml'], { ...env, CBH_CHANNEL_PULL_REQUEST_URL: 'http://127.0.0.1:9/pr' });
    expect(own.code).toBe(2);
    expect(diffLines(own)).toEqual(['+ channel Ops', '+ channel Pull request']);
  });
});

describe('cbh release', () => {
  /** A dashboard build in the scratch directory's dist/, as `npm run build` leaves it, against `react`. */
  function writeBuild(react: string, marker: string) {
    const manifest = {
      id: 'mfe_dashboard',
      name: 'mfe_dashboard',
      metaData: { name: 'mfe_dashboard', remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' }, publicPath: 'auto' },
      shared: [{ name: 'react', version: react, requiredVersion: react, singleton: true }],
      exposes: [{ id: 'mfe_dashboard:Routes', name: 'Routes', path: './Routes' }],
    };
    const files: Record<string, string> = {
      'dist/shell/shared-versions.json': JSON.stringify({ react: '19.3.1', 'react-dom': '19.3.1' }),
      'dist/mfe-dashboard/mf-manifest.json': JSON.stringify(manifest),
      'dist/mfe-dashboard/remoteEntry.js': 'var mfe_dashboard;',
      'dist/mfe-dashboard/749.abcdef0123.js': `console.log(${JSON.stringify(marker)});`,
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
      writeFileSync(path.join(work, file), text);
    }
  }
  const entry = async () =>
    ((await (await fetch(`${api.baseUrl}/remotes.json`)).json()) as { remotes: { entry: string }[] }).remotes[0]!.entry;

  it('checks a build, pushes and promotes it, reports the status, and rolls it back', async () => {
    writeBuild('19.3.1', 'v1');
    expect(await cbh(['release', 'check', 'mfe-dashboard'])).toMatchObject({
      code: 0,
      stdout: 'dist/mfe-dashboard: the shell can load it\n',
    });
    const pushed = await cbh(['release', 'push', 'mfe-dashboard', '--no-build', '--git-commit', 'abc1234', '--promote']);
    expect(pushed.code).toBe(0);
    const id = Number(/version (\d+) uploaded \(3 files/.exec(pushed.stdout)?.[1]);
    expect(pushed.stdout).toContain(`mfe_dashboard: live version ${id}`);
    expect(await entry()).toBe(`/releases/mfe_dashboard/${id}/mf-manifest.json`);
    expect(await (await fetch(`${api.baseUrl}/releases/mfe_dashboard/${id}/749.abcdef0123.js`)).text()).toBe('console.log("v1");');
    const status = await cbh(['release', 'status', 'mfe_dashboard']);
    expect(status.stdout).toMatch(new RegExp(`^mfe_dashboard: live version ${id}, newest ${id} \\(abc1234, `));

    // a changed build as a canary for 10 % of visitors
    writeBuild('19.3.1', 'v2');
    const canary = await cbh(['release', 'push', 'mfe-dashboard', '--no-build', '--canary', '10']);
    expect(canary.code).toBe(0);
    const canaryId = Number(/version (\d+) uploaded/.exec(canary.stdout)?.[1]);
    expect(canary.stdout).toContain(`canary ${canaryId} to 10 %`);
    expect((await cbh(['release', 'push', 'mfe-dashboard', '--no-build', '--canary', '100'])).stderr).toContain(
      '--canary takes a whole percentage from 1 to 99, not 100',
    );

    const rolledBack = await cbh(['release', 'rollback', 'mfe-dashboard']);
    expect(rolledBack.stdout).toMatch(new RegExp(`^mfe_dashboard: live the deployed folder, rollback to ${id}`));
    expect(await entry()).toBe('/remotes/mfe-dashboard/mf-manifest.json');
  });

  it("ships with a token limited to its team's remote, and that token cannot ship another's", async () => {
    const limited = async (remotes: string[]) =>
      (
        await (
          await api.call('/api/tokens', { method: 'POST', cookie: admin, body: { name: `ci-${remotes[0]}`, expiresInDays: 7, remotes } })
        ).json()
      ).token as string;
    writeBuild('19.3.1', 'team');
    const pushed = await cbh(['release', 'push', 'mfe-dashboard', '--no-build', '--promote'], {
      CBH_TOKEN: await limited(['mfe-dashboard']),
    });
    expect(pushed.code).toBe(0);
    const id = Number(/version (\d+) uploaded/.exec(pushed.stdout)?.[1]);
    expect(await entry()).toBe(`/releases/mfe_dashboard/${id}/mf-manifest.json`);
    const other = await cbh(['release', 'push', 'mfe-dashboard', '--no-build', '--promote'], { CBH_TOKEN: await limited(['mfe_users']) });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('This access token may release only mfe_users, not mfe_dashboard');
  });

  it('refuses a build against another React major before sending it, naming the rule and the fix (exit 1)', async () => {
    writeBuild('18.3.1', 'old');
    const checked = await cbh(['release', 'check', 'mfe-dashboard']);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(
      'shared: it was built against react 18.3.1, and the shell provides react 19.3.1: build it against react@19.3.1',
    );
    const before = (await api.sql('SELECT count(*)::int AS n FROM remote_versions'))[0].n;
    const pushed = await cbh(['release', 'push', 'mfe-dashboard', '--no-build']);
    expect(pushed.code).toBe(1);
    expect(pushed.stderr).toContain("breaks the shell's contract; nothing was sent");
    expect((await api.sql('SELECT count(*)::int AS n FROM remote_versions'))[0].n).toBe(before);
  });
});
