import { RELEASE_LIMITS, REMOTE_NAMES, type RemoteLoad } from '@cbh/contracts';

/** Loads are sent a few at a time: this many, or what gathered in this long. */
const BATCH = 10;
const WAIT_MS = 3000;

let queue: RemoteLoad[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

/** Sends the loads gathered so far (a signed-out visitor's are refused, and dropped: they are not counted). */
function flush() {
  clearTimeout(timer);
  timer = undefined;
  if (queue.length === 0) return;
  const loads = queue;
  queue = [];
  void fetch('/api/releases/loads', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loads }),
    keepalive: true,
  }).catch(() => undefined);
}

/**
 * Reports one load of a remote — which entry (so which version), whether it rendered and how long that took, or why
 * it failed — in small batches: what the release screen shows per version, and what rolls a failing canary back.
 */
export function reportLoad(load: Omit<RemoteLoad, 'remote'> & { remote: string }) {
  // the hub counts loads of the remotes it releases only
  if (!(REMOTE_NAMES as readonly string[]).includes(load.remote)) return;
  queue.push({
    ...load,
    remote: load.remote as RemoteLoad['remote'],
    ...(load.reason ? { reason: load.reason.slice(0, RELEASE_LIMITS.reasonLength) } : {}),
  });
  if (queue.length >= BATCH) flush();
  else timer ??= setTimeout(flush, WAIT_MS);
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', flush);
