import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'node_modules/.bin');

/**
 * Runs a command from the workspace root with node_modules/.bin on PATH; resolves to its exit code. With `held`, its
 * output and errors go into that array, in the order they came, rather than to the terminal.
 */
export function run(command, args, { env = {}, stdio = 'inherit', held } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: held ? ['ignore', 'pipe', 'pipe'] : stdio,
      env: { ...process.env, NX_DAEMON: 'false', PATH: `${BIN}${path.delimiter}${process.env.PATH}`, ...env },
    });
    if (held) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => held.push(chunk));
    child.once('error', reject);
    // held output is whole only once its pipes have closed, after the exit
    child.once(held ? 'close' : 'exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

export const buildAll = (extra = [], options = {}) =>
  run('nx', ['run-many', '-t', 'build', '--parallel=2', '--outputStyle=static', ...extra], options);
