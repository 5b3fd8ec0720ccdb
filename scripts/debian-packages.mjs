// The Debian packages the tests run for real, installed when missing. `node scripts/debian-packages.mjs` (.ci/run
// does, before anything else) installs them on their own; npm test checks again before it starts.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CHROMIUM_PATH as CHROMIUM } from './chromium.mjs';
import { run } from './run.mjs';

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

export async function ensureDebianPackages() {
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exit((await ensureDebianPackages()) ? 0 : 1);
