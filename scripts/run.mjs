import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'node_modules/.bin');

/** Runs a command from the workspace root with node_modules/.bin on PATH; resolves to its exit code. */
export function run(command, args, { env = {}, stdio = 'inherit' } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio,
      env: { ...process.env, NX_DAEMON: 'false', PATH: `${BIN}${path.delimiter}${process.env.PATH}`, ...env },
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

export const buildAll = (extra = []) => run('nx', ['run-many', '-t', 'build', '--parallel=2', '--outputStyle=static', ...extra]);
