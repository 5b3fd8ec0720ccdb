// npm test: every check and test, in order; prints one summary line and fails if anything failed.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureDebianPackages } from './debian-packages.mjs';
import { buildAll, ROOT, run } from './run.mjs';
const RESULTS = path.join(ROOT, '.test-results');

/**
 * The steps in stages: a stage's steps run at once, and the next stage starts when all of them have ended. Lint, the
 * type check and the production build the browser tests serve read nothing another writes (Nx computes its project graph
 * under a lock); at once they took 109 s where one after another took 132 (no build cached): the two cores, not the
 * steps, are the bound. A stage of several steps prints each one's output whole when all have ended, in this order.
 */
const stages = [
  [['Debian packages', async () => ((await ensureDebianPackages()) ? 0 : 1)]],
  [
    // the module-boundary rule reads Nx's project graph, which `npm run lint` computes first
    ['lint', (options) => run('npm', ['run', '--silent', 'lint'], options)],
    ['type check', (options) => run('tsc', ['-p', 'tsconfig.json'], options)],
    ['production build', (options) => buildAll([], options)],
  ],
  [['unit, component and API tests', () => run('jest', ['--ci', '--json', `--outputFile=${path.join(RESULTS, 'jest.json')}`])]],
  [['browser', () => run('playwright', ['test', '-c', 'e2e/playwright.config.ts'])]],
];

rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });
const failedSteps = [];
const seconds = (since) => `${Math.round((performance.now() - since) / 1000)} s`;
for (const stage of stages) {
  if (stage.length === 1) {
    const [[name, step]] = stage;
    console.log(`\n=== ${name} ===`);
    const started = performance.now();
    if ((await step()) !== 0) failedSteps.push(name);
    console.log(`=== ${name}: ${seconds(started)} ===`);
    continue;
  }
  console.log(`\n=== ${stage.map(([name]) => name).join(', ')}: at once ===`);
  const started = performance.now();
  const ended = await Promise.all(
    stage.map(async ([name, step]) => {
      const held = [];
      const code = await step({ held });
      return { name, code, held, took: seconds(started) };
    }),
  );
  for (const { name, code, held, took } of ended) {
    console.log(`\n=== ${name}: ${took} ===`);
    process.stdout.write(Buffer.concat(held));
    if (code !== 0) failedSteps.push(name);
  }
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(path.join(RESULTS, file), 'utf8'));
  } catch {
    return null;
  }
}
const jest = readJson('jest.json');
const e2e = readJson('e2e.json');
const passed = (jest?.numPassedTests ?? 0) + (e2e?.stats.expected ?? 0);
const failed = (jest?.numFailedTests ?? 0) + (e2e?.stats.unexpected ?? 0) + (e2e?.stats.flaky ?? 0);
const skipped = (jest?.numPendingTests ?? 0) + (e2e?.stats.skipped ?? 0);

console.log(
  `\njest: ${jest?.numPassedTests ?? 0} passed, ${jest?.numFailedTests ?? 0} failed; playwright: ${e2e?.stats.expected ?? 0} passed, ${e2e?.stats.unexpected ?? 0} failed`,
);
if (failedSteps.length) console.log(`failed steps: ${failedSteps.join(', ')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedSteps.length ? 1 : 0);
