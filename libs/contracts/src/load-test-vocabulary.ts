// No schema library here: the screens import these words, and a module with schemas would bring one along.

/** The load-test controls: failure rate 0–100 % in steps of 5 (default 15), 1–100 requests/s (default 20), 1–60 minutes (default 5). */
export const LOAD_TEST_LIMITS = {
  failureRate: { min: 0, max: 100, step: 5, default: 15 },
  requestRate: { min: 1, max: 100, default: 20 },
  durationMinutes: { min: 1, max: 60, default: 5 },
} as const;

export const TEST_SESSION_STATUSES = ['running', 'completed', 'stopped'] as const;
