// POST /api/import of a document of 1,000 breakers and 1,000 domains on the production API: the dry run's diff
// against a hub that has none of them (goal ≤ 2 s), applying it in its one transaction (goal ≤ 5 s), and the dry run
// again once applied, every item unchanged (what a CI check of an up-to-date hub costs), then a second document
// changing every breaker's threshold (1,000 updates, goal ≤ 5 s).
// Usage: npm run build && node bench/config-import.mjs [--breakers 1000] [--domains 1000]
import { startBenchApi } from './api-process.mjs';
import { benchLine, numberArg } from './report.mjs';

const BREAKERS = numberArg('breakers', 1000);
const DOMAINS = numberArg('domains', 1000);
const number = (i) => String(i).padStart(4, '0');

const document = {
  version: 1,
  breakers: Array.from({ length: BREAKERS }, (_, i) => ({
    name: `bench breaker ${number(i)}`,
    type: ['simple', 'adaptive', 'bulkhead'][i % 3],
    failureThreshold: 1 + (i % 20),
    timeout: 30_000,
    recoveryTime: 60_000,
    successThreshold: 3,
  })),
  services: [],
  domains: Array.from({ length: DOMAINS }, (_, i) => ({ name: `bench-${number(i)}.example.test` })),
};
let body = JSON.stringify(document);

const api = await startBenchApi({
  env: {
    // the document's domains are the bench account's: the quotas make room for them
    DOMAINS_PER_USER: String(DOMAINS + 100),
    DOMAINS_TOTAL: String(DOMAINS + 100),
    // the new domains' checks stay on this machine and fail at once
    DNS_SERVERS: '127.0.0.1:9',
    RDAP_BASE_URL: 'http://127.0.0.1:9',
  },
});

/** The import, timed from before its request to its parsed answer: its own fetch, with the body sent as serialised once. */
async function timedImport(query) {
  const started = performance.now();
  const response = await fetch(`${api.url}/api/import${query}`, {
    method: 'POST',
    headers: { cookie: api.cookie, 'content-type': 'application/json' },
    body,
  });
  const answer = await response.json();
  const ms = Math.round(performance.now() - started);
  if (response.status !== 200) throw new Error(`POST /api/import${query}: ${response.status} ${JSON.stringify(answer)}`);
  const actions = {};
  for (const change of answer.changes) actions[change.action] = (actions[change.action] ?? 0) + 1;
  console.log(
    `POST /api/import${query}: ${ms} ms, ${Object.entries(actions)
      .map(([action, n]) => `${n} ${action}`)
      .join(', ')}`,
  );
  return { ms, actions };
}

try {
  const items = BREAKERS + DOMAINS;
  console.log(`a document of ${BREAKERS} breakers and ${DOMAINS} domains, ${(body.length / 1024).toFixed(0)} KB of JSON`);
  const dryRun = await timedImport('?dryRun=true');
  if (dryRun.actions.create !== items) throw new Error(`the dry run should create ${items} items`);
  const applied = await timedImport('');
  if (applied.actions.create !== items) throw new Error(`the import should create ${items} items`);
  const again = await timedImport('?dryRun=true');
  if (again.actions.unchanged !== items) throw new Error(`the second dry run should find ${items} items unchanged`);
  const label = `${BREAKERS.toLocaleString('en')} breakers + ${DOMAINS.toLocaleString('en')} domains`;
  body = JSON.stringify({
    ...document,
    breakers: document.breakers.map((breaker) => ({ ...breaker, failureThreshold: 21 - breaker.failureThreshold })),
  });
  const updated = await timedImport('');
  if (updated.actions.update !== BREAKERS) throw new Error(`the second import should update ${BREAKERS} breakers`);
  benchLine(`import dry run, ${label}`, `${dryRun.ms} ms`, '≤ 2000 ms', dryRun.ms <= 2000);
  benchLine(`import applied, ${label}`, `${applied.ms} ms`, '≤ 5000 ms', applied.ms <= 5000);
  benchLine(`import dry run, ${label} unchanged`, `${again.ms} ms`, '≤ 2000 ms', again.ms <= 2000);
  benchLine(
    `import applied, ${BREAKERS.toLocaleString('en')} breakers' thresholds changed`,
    `${updated.ms} ms`,
    '≤ 5000 ms',
    updated.ms <= 5000,
  );
} finally {
  await api.stop();
}
