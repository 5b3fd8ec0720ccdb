import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

/** Whether pid is a running PostgreSQL server (not some other process that reused the number). */
function isRunningPostgres(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const cmdline = `/proc/${pid}/cmdline`;
  if (!existsSync('/proc/self/cmdline')) return true;
  if (!existsSync(cmdline)) return false;
  const program = readFileSync(cmdline, 'utf8').split('\0')[0] ?? '';
  return path.basename(program).startsWith('postgres');
}

/**
 * Removes postmaster.pid when no PostgreSQL runs under the pid it names: what a crash or a kill leaves
 * behind, sometimes with the number since reused by another process, and PostgreSQL then refuses to
 * start. Returns the pid when the server still runs.
 */
export function clearStalePid(clusterDir: string): number | null {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && isRunningPostgres(pid)) return pid;
  rmSync(pidFile, { force: true });
  return null;
}
