/** Notifications: one toast at a time, shown 5 s, swiped right (50 px) to dismiss, F8 focuses the region. */
export const TOAST = {
  limit: 1,
  durationMs: 5000,
  swipeDirection: 'right',
  swipeThresholdPx: 50,
  hotkey: ['F8'],
  removeDelayMs: 1_000_000,
  maxWidthPx: 420,
} as const;

export const TOOLTIP = {
  delayMs: 700,
  skipDelayMs: 300,
} as const;

/** How long the shell waits for a remote before it shows the fallback card. */
export const REMOTE_LOAD_TIMEOUT_MS = 10_000;

/** The live updates' WebSocket path; every frame is JSON {type, data}. */
export const WS_PATH = '/ws';

/**
 * MAX_BODY_KB's default: the largest body (KB) the API takes on a route it does not treat apart. A gateway in front
 * (nginx, the Kubernetes ingress) lets this much through, and no more.
 */
export const DEFAULT_MAX_BODY_KB = 100;
/**
 * The close code of a /ws socket whose session or token ended (signed out here or elsewhere, expired, revoked, the
 * account deactivated): the page learns it is signed out without waiting for its next request.
 */
export const WS_SIGNED_OUT_CLOSE = 4401;
