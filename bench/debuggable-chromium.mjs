// Debian's Chromium for Lighthouse to drive (bench/web-vitals.mjs): a temporary profile, a remote-debugging port, and a
// stop that ends the browser with every helper process it started before the profile is removed.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.mjs';

/** Debian's Chromium with a remote-debugging port for Lighthouse to drive; resolves once the port answers. */
export async function startDebuggableChromium(port) {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'cbh-lighthouse-'));
  const child = spawn(
    CHROMIUM_PATH,
    [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`, `--user-data-dir=${userDataDir}`, 'about:blank'],
    // its own process group, so that stopping it stops its helpers too (they outlive the browser process otherwise)
    { stdio: 'ignore', detached: true },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  /** Sends the signal to every process of the browser's group (0: none, only asks); false once the group is gone. */
  const signalGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
      return true;
    } catch {
      return false;
    }
  };
  // not in this process's group, so a bench stopped short would leave it running: stopped with this process
  const killGroup = () => signalGroup('SIGKILL');
  process.once('exit', killGroup);
  const stop = async () => {
    signalGroup('SIGTERM');
    await exited;
    // The helpers (network service, storage) write to the profile's cache for a moment after the browser process
    // exits: the profile is removed once none is left (killed after 10 s), as removing it under them failed runs
    // (ENOTEMPTY) even with retries for 5 s.
    for (let waited = 0; signalGroup(0) && waited < 10_000; waited += 100) await sleep(100);
    killGroup();
    process.off('exit', killGroup);
    try {
      rmSync(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch (error) {
      // a leftover in the temporary directory is not worth the run's measurements
      console.warn(`the Lighthouse browser's profile ${userDataDir} was left behind: ${error.message}`);
    }
  };
  for (let tries = 0; ; tries++) {
    const up = await fetch(`http://127.0.0.1:${port}/json/version`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { stop };
    if (tries > 80 || child.exitCode !== null) {
      await stop();
      throw new Error('Chromium did not open its remote-debugging port');
    }
    await sleep(250);
  }
}
