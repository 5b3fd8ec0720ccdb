// npm test: every check and test, in order; prints one summary line and fails if anything failed.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_PATH as CHROMIUM } from './chromium.mjs';
import { buildAll, ROOT, run } from './run.mjs';
const RESULTS = path.join(ROOT, '.test-results');

/**
 * Debian's packages the tests run for real: Chromium (the browser tests), nginx (the gateway's and static servers'
 * configs), Prometheus with promtool (scraping the replicas, checking the exposition and the alerting rules) and
 * kubectl (rendering the Kubernetes manifests with its kustomize). Run as root, `npm test` installs what is missing.
 */
const DEBIAN_PACKAGES = [
  { name: 'chromium', paths: [CHROMIUM], forWhat: 'the browser tests' },
  { name: 'nginx', paths: ['/usr/sbin/nginx'], forWhat: 'the gateway tests' },
  { name: 'prometheus', paths: ['/usr/bin/prometheus'], forWhat: 'the metrics tests' },
  // any kubectl will do (a cloud SDK's included); Debian's is the package kubernetes-client
  { name: 'kubernetes-client', paths: ['/usr/bin/kubectl', '/usr/local/bin/kubectl'], forWhat: 'the Kubernetes manifests test' },
];

async function ensureDebianPackages() {
  const missing = DEBIAN_PACKAGES.filter(({ paths }) => !paths.some((file) => existsSync(file)));
  if (!missing.length) return true;
  if (process.getuid?.() !== 0) {
    for (const { name, paths, forWhat } of missing) {
      console.error(`${name} is missing at ${paths[0]} (${forWhat}): install it with \`sudo apt-get install -y ${name}\`.`);
    }
    return false;
  }
  const names = missing.map(({ name }) => name);
  console.log(`Installing Debian’s ${names.join(' and ')} for the tests…`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const installed =
    (await run('apt-get', ['update', '-qq'], { env })) === 0 && (await run('apt-get', ['install', '-y', '-qq', ...names], { env })) === 0;
  // the packages may start nginx with Debian's default site and a Prometheus service; the tests start their own
  if (installed && names.includes('nginx')) await run('nginx', ['-s', 'quit']);
  if (installed && names.includes('prometheus')) await run('sh', ['-c', 'pkill -x prometheus; pkill -f prometheus-node-exporter; true']);
  return installed;
}

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
