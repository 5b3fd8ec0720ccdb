/**
 * At most one toast per breaker per 30 s: every replica reports the same opening, and a breaker that keeps
 * failing its trial calls reopens every recovery period.
 */
export const OPEN_TOAST_WINDOW_MS = 30_000;

/**
 * Given when each breaker last got a toast (ms since the epoch), whether its opening at `now` gets one: the
 * updated record when it does, null when it is throttled. Entries past the window are dropped, so the record
 * holds only breakers that opened in the last 30 s.
 */
export function throttleOpenToast(
  shown: ReadonlyMap<number, number>,
  configId: number,
  now: number,
  windowMs = OPEN_TOAST_WINDOW_MS,
): Map<number, number> | null {
  const last = shown.get(configId);
  if (last !== undefined && now - last < windowMs) return null;
  const next = new Map([...shown].filter(([, at]) => now - at < windowMs));
  next.set(configId, now);
  return next;
}
