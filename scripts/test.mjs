// npm test: every check and test, in order; prints one summary line and fails if anything failed.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_PATH as CHROMIUM } from './chromium.mjs';
import { buildAll, ROOT, run } from './run.mjs';
const RESULTS = path.join(ROOT, '.test-results');

async function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  if (process.getuid?.() !== 0) {
    console.error(`Chromium is missing at ${CHROMIUM}: install it with \`sudo apt-get install -y chromium\` (or set CHROMIUM_PATH).`);
    return false;
  }
  console.log('Installing Debian’s chromium for the browser tests…');
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  return (
    (await run('apt-get', ['update', '-qq'], { env })) === 0 && (await run('apt-get', ['install', '-y', '-qq', 'chromium'], { env })) === 0
  );
}

const steps = [
  // the module-boundary rule reads Nx's project graph, which `npm run lint` computes first
  ['lint', () => run('npm', ['run', '--silent', 'lint'])],
  ['type check', () => run('tsc', ['-p', 'tsconfig.json'])],
  ['unit, component and API tests', () => run('jest', ['--ci', '--json', `--outputFile=${path.join(RESULTS, 'jest.json')}`])],
  ['production build', buildAll],
  ['browser', async () => ((await ensureChromium()) ? run('playwright', ['test', '-c', 'e2e/playwright.config.ts']) : 1)],
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
