import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { apiForThisFile } from '../../../api/test/test-api';
import { cliForThisFile } from './cli-api.test-kit';

/**
 * `cbh release` as a CI job runs it, against the real API on PostgreSQL: a remote's build checked against the shell's
 * contract, pushed, promoted or sent as a canary, rolled back, and shipped with a token limited to its team's remote.
 */
const spec = apiForThisFile();
const { work, cbh, createToken } = cliForThisFile(spec);

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
    ((await (await fetch(`${spec.api.baseUrl}/remotes.json`)).json()) as { remotes: { entry: string }[] }).remotes[0]!.entry;

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
    expect(await (await fetch(`${spec.api.baseUrl}/releases/mfe_dashboard/${id}/749.abcdef0123.js`)).text()).toBe('console.log("v1");');
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
    const limited = async (remotes: string[]) => (await createToken(undefined, { name: `ci-${remotes[0]}`, remotes })).token;
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
    const before = (await spec.api.sql('SELECT count(*)::int AS n FROM remote_versions'))[0].n;
    const pushed = await cbh(['release', 'push', 'mfe-dashboard', '--no-build']);
    expect(pushed.code).toBe(1);
    expect(pushed.stderr).toContain("breaks the shell's contract; nothing was sent");
    expect((await spec.api.sql('SELECT count(*)::int AS n FROM remote_versions'))[0].n).toBe(before);
  });
});
