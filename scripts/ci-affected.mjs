// What a change touches, and only that: the projects Nx finds affected between --base (default origin/main, else
// main) and --head (default HEAD) — their dependents included — linted, tested and built. For a team that owns one
// remote: a change inside mfe-domains lints, tests and builds mfe-domains; a change to a shared library also every
// app that uses it. The type check runs whole (one program, and a change may break another project's types).
// Usage: npm run ci:affected [-- --base <ref>] [--head <ref>] [--dry-run]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, run } from './run.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const gitHas = (ref) => {
  try {
    execFileSync('git', ['rev-parse', '--verify', '--quiet', ref], { cwd: ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const base = arg('base', process.env.NX_BASE ?? (gitHas('origin/main') ? 'origin/main' : 'main'));
const head = arg('head', process.env.NX_HEAD ?? 'HEAD');

/** The affected projects and where each one's sources are. */
function affected() {
  const names = JSON.parse(
    execFileSync(
      path.join(ROOT, 'node_modules/.bin/nx'),
      ['show', 'projects', '--affected', `--base=${base}`, `--head=${head}`, '--json'],
      {
        cwd: ROOT,
        env: { ...process.env, NX_DAEMON: 'false' },
        encoding: 'utf8',
      },
    ),
  );
  return names.map((name) => {
    const config = JSON.parse(
      execFileSync(path.join(ROOT, 'node_modules/.bin/nx'), ['show', 'project', name, '--json'], { cwd: ROOT, encoding: 'utf8' }),
    );
    return { name, root: config.root, build: Boolean(config.targets?.build) };
  });
}

/** The commands for the affected projects, in order. */
export function plan(projects) {
  if (projects.length === 0) return [];
  const roots = projects.map((project) => project.root);
  const builds = projects.filter((project) => project.build).map((project) => project.name);
  return [
    ['eslint', ['--max-warnings=0', ...roots]],
    ['prettier', ['--check', '--log-level=warn', ...roots]],
    ['tsc', ['-p', 'tsconfig.json']],
    ['jest', ['--passWithNoTests', ...roots]],
    ...(builds.length > 0 ? [['nx', ['run-many', '-t', 'build', `--projects=${builds.join(',')}`, '--outputStyle=static']]] : []),
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const projects = affected();
  const steps = plan(projects);
  console.log(`affected between ${base} and ${head}: ${projects.map((project) => project.name).join(', ') || 'nothing'}`);
  for (const [command, args] of steps) console.log(`  ${command} ${args.join(' ')}`);
  if (!process.argv.includes('--dry-run')) {
    for (const [command, args] of steps) {
      const code = await run(command, args);
      if (code !== 0) process.exit(code);
    }
  }
}
