import { z } from 'zod';

/** The load-test controls: failure rate 0–100 % in steps of 5 (default 15), 1–100 requests/s (default 20), 1–60 minutes (default 5). */
export const LOAD_TEST_LIMITS = {
  failureRate: { min: 0, max: 100, step: 5, default: 15 },
  requestRate: { min: 1, max: 100, default: 20 },
  durationMinutes: { min: 1, max: 60, default: 5 },
} as const;

const L = LOAD_TEST_LIMITS;
const int = (min: number, max: number) =>
  z
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

export const startTestSessionSchema = z.strictObject({
  configId: z.number({ message: 'must be a breaker id' }).int().positive('must be a breaker id'),
  failureRate: int(L.failureRate.min, L.failureRate.max),
  requestRate: int(L.requestRate.min, L.requestRate.max),
  /** minutes */
  duration: int(L.durationMinutes.min, L.durationMinutes.max),
});
export const testSessionIdSchema = z.coerce
  .number({ message: 'must be a test session id' })
  .int('must be a test session id')
  .positive('must be a test session id');

export const TEST_SESSION_STATUSES = ['running', 'completed', 'stopped'] as const;

/** GET /api/test-sessions?status=&configId=: the newest 100 sessions, or a breaker's newest 50 (its history). */
export const testSessionQuerySchema = z.object({
  status: z.enum(TEST_SESSION_STATUSES, { message: `must be one of ${TEST_SESSION_STATUSES.join(', ')}` }).optional(),
  configId: z.coerce.number({ message: 'must be a breaker id' }).int('must be a breaker id').positive('must be a breaker id').optional(),
});

export interface TestSessionView {
  id: number;
  configId: number;
  failureRate: number;
  requestRate: number;
  duration: number;
  status: (typeof TEST_SESSION_STATUSES)[number];
  startedAt: string;
  endsAt: string;
  stoppedAt: string | null;
}
