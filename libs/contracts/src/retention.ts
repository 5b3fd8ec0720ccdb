import { z } from 'zod';
import { RETENTION_MAX_DAYS, RETENTION_MIN_DAYS } from './retention-vocabulary';

const days = z
  .number({ message: 'must be a number of days' })
  .int('must be whole days')
  .min(RETENTION_MIN_DAYS, `must be at least ${RETENTION_MIN_DAYS} day`)
  .max(RETENTION_MAX_DAYS, `must be at most ${RETENTION_MAX_DAYS} days`);

/** PATCH /api/system/retention: any of the four settings, at least one. */
export const updateRetentionSchema = z
  .strictObject({
    auditDays: days.optional(),
    checkResultDays: days.optional(),
    transitionDays: days.optional(),
    notificationDays: days.optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { message: 'name at least one setting to change' });

/** POST /api/system/retention/prune takes no settings: no body, an empty object or JSON null. */
export const pruneRetentionSchema = z.strictObject({}).nullish();
