import { z } from 'zod';
import { LOAD_TEST_LIMITS, TEST_SESSION_STATUSES } from './load-test-vocabulary';

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
