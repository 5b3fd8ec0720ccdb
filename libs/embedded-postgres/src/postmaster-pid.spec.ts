import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clearStalePid } from './postmaster-pid';

function clusterWithPid(pid: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'cbh-pg-'));
  writeFileSync(path.join(dir, 'postmaster.pid'), `${pid}\n${dir}\n1700000000\n54320\n`);
  return dir;
}

describe('stale postmaster.pid', () => {
  it('removes the file when its process is gone, as after a crash', () => {
    const exited = spawnSync(process.execPath, ['-e', '0']).pid!;
    const dir = clusterWithPid(exited);
    expect(clearStalePid(dir)).toBeNull();
    expect(existsSync(path.join(dir, 'postmaster.pid'))).toBe(false);
  });

  it('removes the file when its pid now belongs to another program', () => {
    const dir = clusterWithPid(process.pid);
    expect(clearStalePid(dir)).toBeNull();
    expect(existsSync(path.join(dir, 'postmaster.pid'))).toBe(false);
  });

  it('keeps the file and reports the pid while PostgreSQL runs under it', async () => {
    const server = spawn('bash', ['-c', 'exec -a postgres sleep 30']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    try {
      const dir = clusterWithPid(server.pid!);
      expect(clearStalePid(dir)).toBe(server.pid);
      expect(existsSync(path.join(dir, 'postmaster.pid'))).toBe(true);
    } finally {
      server.kill();
    }
  });

  it('does nothing without a pid file', () => {
    expect(clearStalePid(mkdtempSync(path.join(tmpdir(), 'cbh-pg-')))).toBeNull();
  });
});
