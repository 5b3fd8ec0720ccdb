import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes postmaster.pid when the process it names is gone, which is what a crash or a kill leaves behind;
 * PostgreSQL refuses to start while the file is there. Returns the pid when a server still runs.
 */
export function clearStalePid(clusterDir: string): number | null {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) return pid;
  rmSync(pidFile, { force: true });
  return null;
}
