// npm run bench: builds the site once, runs every benchmark one after the other (each prints its own figures) and
// ends with one table of every measure: figure, goal, OK or MISSED, and the machine it ran on. The 30-minute soak
// is not part of it (npm run bench:soak); --soak-minutes N adds a short one.
// Usage: npm run bench [-- --no-build] [--only api,ws] [--soak-minutes 5]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildAll, ROOT } from '../scripts/run.mjs';
import { writeTableInto } from './performance-doc.mjs';
import { numberArg } from './report.mjs';

const BENCHMARKS = [
  ['bundle', 'bundle-budget.mjs', ['--no-build']],
  ['vitals', 'web-vitals.mjs', []],
  ['api', 'api-throughput.mjs', []],
  ['ws', 'ws-fanout.mjs', []],
  ['breaker', 'breaker-overhead.mjs', []],
  ['agent', 'agent-overhead.mjs', []],
  ['load', 'load-engine.mjs', []],
  ['domains', 'domain-checks.mjs', []],
  ['import', 'config-import.mjs', []],
  ['console', 'console-wall.mjs', []],
  ['bulk', 'bulk-force-open.mjs', []],
  ['notify', 'notification-latency.mjs', []],
  ['fleet', 'fleet-ingest.mjs', []],
  ['scrape', 'scrape-cost.mjs', []],
  ['releases', 'release-serving.mjs', []],
  ['status', 'status-pages.mjs', []],
  ['slo', 'slo.mjs', []],
  ['at-rest', 'at-rest.mjs', []],
  ['rate', 'request-rate.mjs', []],
];
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].split(',') : null;
const soakMinutes = numberArg('soak-minutes', 0);
if (soakMinutes > 0) BENCHMARKS.push(['soak', 'soak.mjs', ['--minutes', String(soakMinutes)]]);

/** Runs one benchmark with its output shown as it comes, and returns its BENCH lines. */
function runBenchmark(script, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bench', script), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on('exit', (code) => {
      const rows = output
        .split('\n')
        .filter((line) => line.startsWith('BENCH\t'))
        .map((line) => line.split('\t').slice(1));
      if (code !== 0) rows.push([`${script} exited with code ${code}`, '—', '—', 'MISSED']);
      resolve(rows);
    });
  });
}

if (!process.argv.includes('--no-build') && (await buildAll()) !== 0) process.exit(1);
const rows = [];
const started = Date.now();
for (const [name, script, args] of BENCHMARKS) {
  if (only && !only.includes(name)) continue;
  if (!existsSync(path.join(ROOT, 'bench', script))) continue;
  console.log(`\n=== ${name}: node bench/${script} ${args.join(' ')}`);
  rows.push(...(await runBenchmark(script, args)));
}

const cpus = os.cpus();
const machine = `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}, ${os.platform()} ${os.release()}`;
const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine} (${Math.round((Date.now() - started) / 60_000)} min):`,
  '',
  '| Measure | Figure | Goal | |',
  '|---|---|---|---|',
  ...rows.map(([measure, figure, goal, verdict]) => `| ${measure} | ${figure} | ${goal} | ${verdict} |`),
].join('\n');
console.log(`\n${table}`);
mkdirSync(path.join(ROOT, '.bench-results'), { recursive: true });
writeFileSync(path.join(ROOT, '.bench-results/table.md'), `${table}\n`);
// only a run of every benchmark replaces the published table: a partial one (--only) would drop the others' rows
if (!only) writeTableInto(path.join(ROOT, 'docs/performance.md'), table);
const ok = rows.filter((row) => row[3] === 'OK').length;
const missed = rows.filter((row) => row[3] === 'MISSED').length;
console.log(`\n${ok} OK, ${missed} MISSED (the table is in .bench-results/table.md${only ? '' : ' and docs/performance.md'})`);
