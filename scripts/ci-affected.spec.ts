import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const node = (args: string[]) =>
  execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NX_DAEMON: 'false' } });

it("plans lint, tests and builds of the affected projects only, a remote's team running just theirs", () => {
  const planned = JSON.parse(
    node([
      '--input-type=module',
      '-e',
      "import { plan } from './scripts/ci-affected.mjs'; console.log(JSON.stringify(plan([{ name: 'mfe-domains', root: 'mfe-domains', build: true }, { name: 'ui', root: 'libs/ui', build: false }])))",
    ]),
  );
  expect(planned).toEqual([
    ['eslint', ['--max-warnings=0', 'mfe-domains', 'libs/ui']],
    ['prettier', ['--check', '--log-level=warn', 'mfe-domains', 'libs/ui']],
    ['tsc', ['-p', 'tsconfig.json']],
    ['jest', ['--passWithNoTests', 'mfe-domains', 'libs/ui']],
    ['nx', ['run-many', '-t', 'build', '--projects=mfe-domains', '--outputStyle=static']],
  ]);
});

it('finds nothing to do when nothing changed', () => {
  const printed = node(['scripts/ci-affected.mjs', '--base', 'HEAD', '--head', 'HEAD', '--dry-run']);
  expect(printed).toBe('affected between HEAD and HEAD: nothing\n');
}, 60_000);
