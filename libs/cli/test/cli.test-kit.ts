import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** The checkout, where the CLI is built from. */
export const ROOT = path.resolve(__dirname, '../../..');

/** Builds `cbh` into one file in `outputDir` as a CI job would, and says where it is. */
export function buildCli(outputDir: string): string {
  const built = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/webpack-cli/bin/cli.js'), '--config', 'libs/cli/webpack.config.js', '--output-path', outputDir],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (built.status !== 0) throw new Error(`the CLI did not build:\n${built.stdout}${built.stderr}`);
  return path.join(outputDir, 'cbh.js');
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built `cbh ARGS` run in `cwd` with only PATH and `env` in its environment, and what it printed. */
export function runCli(bundle: string, cwd: string, args: string[], env: Record<string, string | undefined>): Promise<Run> {
  return startCli(bundle, cwd, args, env).done;
}

export interface RunningCli {
  child: ChildProcess;
  /** What it printed so far. */
  output(): Omit<Run, 'code'>;
  done: Promise<Run>;
}

/** `cbh ARGS` started, for a test that acts while it runs (reports an agent's move, sends it a signal). */
export function startCli(bundle: string, cwd: string, args: string[], env: Record<string, string | undefined>): RunningCli {
  const child = spawn(process.execPath, [bundle, ...args], { cwd, env: { PATH: process.env.PATH, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const done = new Promise<Run>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, output: () => ({ stdout, stderr }), done };
}
