import { z } from 'zod';
import { RETENTION_MAX_DAYS, RETENTION_SETTING_MIN_DAYS, type RetentionSetting } from './retention-vocabulary';

const days = (setting: RetentionSetting) => {
  const min = RETENTION_SETTING_MIN_DAYS[setting];
  return z
    .number({ message: 'must be a number of days' })
    .int('must be whole days')
    .min(min, `must be at least ${min} ${min === 1 ? 'day' : 'days'}`)
    .max(RETENTION_MAX_DAYS, `must be at most ${RETENTION_MAX_DAYS} days`);
};

/** PATCH /api/system/retention: any of the four settings, at least one. */
export const updateRetentionSchema = z
  .strictObject({
    auditDays: days('auditDays').optional(),
    checkResultDays: days('checkResultDays').optional(),
    transitionDays: days('transitionDays').optional(),
    notificationDays: days('notificationDays').optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { message: 'name at least one setting to change' });

/** POST /api/system/retention/prune takes no settings: no body, an empty object or JSON null. */
export const pruneRetentionSchema = z.strictObject({}).nullish();
