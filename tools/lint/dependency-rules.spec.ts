import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The import rules of `npm run lint` (.dependency-cruiser.cjs), tried on a small tree that breaks each one: a rule
 * that stopped matching (a renamed folder, a regular expression gone wrong) would let the house decay unseen.
 */
const ROOT = path.resolve(__dirname, '../..');
const DEPCRUISE = path.join(ROOT, 'node_modules/.bin/depcruise');

let tree: string;
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
  writeFileSync(path.join(tree, file), text);
};

/** The rules each file of the tree breaks, by the file's path. */
function violations(): Map<string, string[]> {
  const run = spawnSync(DEPCRUISE, ['api', 'libs', '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'], {
    cwd: tree,
    encoding: 'utf8',
  });
  if (!run.stdout) throw new Error(run.stderr);
  const result = JSON.parse(run.stdout) as { summary: { violations: { from: string; rule: { name: string } }[] } };
  const found = new Map<string, string[]>();
  for (const { from, rule } of result.summary.violations) found.set(from, [...(found.get(from) ?? []), rule.name].sort());
  return found;
}

beforeAll(() => {
  tree = mkdtempSync(path.join(tmpdir(), 'cbh-structure-'));
  write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' } }));
  write('api/src/platform/index.ts', "export { clock } from './common/clock';\n");
  write('api/src/platform/common/clock.ts', 'export const clock = () => Date.now();\n');
  write('api/src/identity/index.ts', "export { who } from './users/who';\n");
  write('api/src/identity/users/who.ts', "import { clock } from '../../platform';\nexport const who = () => String(clock());\n");
  write('api/src/identity/users/who.test-kit.ts', "export const fakeWho = () => 'someone';\n");
  // each of these breaks one rule
  write('api/src/platform/health/up.ts', "import { who } from '../../identity';\nexport const up = () => who();\n");
  write('api/src/breakers/past-index.ts', "import { who } from '../identity/users/who';\nexport const name = () => who();\n");
  write('api/src/breakers/a.ts', "import { b } from './b';\nexport const a = () => b();\n");
  write('api/src/breakers/b.ts', "import { a } from './a';\nexport const b = (): number => a();\n");
  write('libs/thing/src/index.ts', "import { clock } from '../../../api/src/platform';\nexport const t = clock;\n");
  write('api/src/breakers/uses-kit.ts', "import { fakeWho } from '../identity/users/who.test-kit';\nexport const k = fakeWho;\n");
  write('api/src/slos/index.ts', 'export const budget = () => 1;\n');
  write('api/src/domains/uses-slos.ts', "import { budget } from '../slos';\nexport const b = budget;\n");
  // and this one breaks none: a context's tests may reach into another's internals
  write(
    'api/src/breakers/past-index.spec.ts',
    "import { who } from '../identity/users/who';\nit('runs', () => expect(who()).toBeTruthy());\n",
  );
});

afterAll(() => rmSync(tree, { recursive: true, force: true }));

it('refuses an import up the contexts, past an index, in a cycle, into the API from a library, or of a test helper', () => {
  const found = violations();
  expect(Object.fromEntries(found)).toEqual({
    'api/src/platform/health/up.ts': ['platform-is-the-floor'],
    'api/src/breakers/past-index.ts': ['context-through-its-index'],
    // a cycle is reported once, from where the cruise met it first
    'api/src/breakers/a.ts': ['no-circular'],
    'libs/thing/src/index.ts': ['nothing-imports-the-api'],
    'api/src/breakers/uses-kit.ts': ['context-through-its-index', 'no-test-helpers-in-production'],
    'api/src/domains/uses-slos.ts': ['features-sit-below-slos'],
  });
});

it("keeps api/src/README.md's list of the contexts' edges as the code has them (npm run graph:contexts)", () => {
  const run = spawnSync(
    DEPCRUISE,
    [
      'api/src',
      '--include-only',
      '^api/src/[^/]+/',
      '--exclude',
      '(\\.spec|test-kit)\\.ts$',
      '--collapse',
      '^api/src/[^/]+/',
      '--output-type',
      'json',
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  const graph = JSON.parse(run.stdout) as { modules: { source: string; dependencies: { resolved: string }[] }[] };
  const contextOf = (folder: string) => folder.replace(/^api\/src\//, '').replace(/\/$/, '');
  const lines = graph.modules
    .map(({ source, dependencies }) => ({ from: contextOf(source), to: dependencies.map((d) => contextOf(d.resolved)).sort() }))
    .filter(({ to }) => to.length > 0)
    .sort((a, b) => a.from.localeCompare(b.from))
    .map(({ from, to }) => `${from.padEnd(13)} → ${to.join(', ')}`);
  const readme = readFileSync(path.join(ROOT, 'api/src/README.md'), 'utf8');
  expect(lines).toHaveLength(11);
  expect(readme).toContain(lines.join('\n'));
});
