// npm test: every check and test, in order; prints one summary line and fails if anything failed.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureDebianPackages } from './debian-packages.mjs';
import { buildAll, ROOT, run } from './run.mjs';
const RESULTS = path.join(ROOT, '.test-results');

const steps = [
  ['Debian packages', async () => ((await ensureDebianPackages()) ? 0 : 1)],
  // the module-boundary rule reads Nx's project graph, which `npm run lint` computes first
  ['lint', () => run('npm', ['run', '--silent', 'lint'])],
  ['type check', () => run('tsc', ['-p', 'tsconfig.json'])],
  ['unit, component and API tests', () => run('jest', ['--ci', '--json', `--outputFile=${path.join(RESULTS, 'jest.json')}`])],
  ['production build', buildAll],
  ['browser', () => run('playwright', ['test', '-c', 'e2e/playwright.config.ts'])],
];

rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });
const failedSteps = [];
for (const [name, step] of steps) {
  console.log(`\n=== ${name} ===`);
  if ((await step()) !== 0) failedSteps.push(name);
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
