// Reads a V8 .cpuprofile (node --cpu-prof) and tells where the time went: the top functions by self time and the
// packages (node_modules/<name>, node: internals, the app's own code) by self time.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** { frames: [{name, where, ms, share}], packages: [{name, ms, share}], totalMs } */
export function summarise(file, top = 15) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000));
  const totalMs = [...self.values()].reduce((a, b) => a + b, 0);
  const frames = new Map();
  const packages = new Map();
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const name = functionName || '(anonymous)';
    const where = url ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')}:${lineNumber + 1}` : '';
    const key = `${name} ${where}`;
    frames.set(key, { name, where, ms: (frames.get(key)?.ms ?? 0) + ms });
    const pkg = packageOf(url, name);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
  }
  const share = (ms) => Math.round((1000 * ms) / totalMs) / 10;
  return {
    totalMs,
    frames: [...frames.values()]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top)
      .map((f) => ({ ...f, share: share(f.ms) })),
    packages: [...packages.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms, share: share(ms) })),
  };
}

function packageOf(url, name) {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  if (url.startsWith('node:')) return 'node: internals';
  return 'app';
}

export function printSummary({ totalMs, frames, packages }, print = console.log) {
  print(`CPU profile: ${(totalMs / 1000).toFixed(1)} s sampled`);
  print('  top functions by self time:');
  for (const f of frames) print(`    ${f.share.toFixed(1).padStart(5)} %  ${f.name}  ${f.where}`);
  print('  by package:');
  for (const p of packages) print(`    ${p.share.toFixed(1).padStart(5)} %  ${p.name}`);
}

/**
 * With --profile on the benchmark's command line, the node arguments that make the API write its CPU profile, and a
 * `report` that prints the profile's top frames once the API has stopped; without it, no arguments and no report.
 */
export function apiProfiling(top = 20) {
  if (!process.argv.includes('--profile')) return { nodeArgs: [], report: () => undefined };
  const dir = mkdtempSync(path.join(tmpdir(), 'api-profile-'));
  return {
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    /** Prints each profile written: one per process started with nodeArgs (its file name holds its pid). */
    report() {
      for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
        console.log(`profile: ${path.join(dir, file)}`);
        printSummary(summarise(path.join(dir, file), top));
      }
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) printSummary(summarise(process.argv[2], Number(process.argv[3] ?? 15)));
