import { z } from 'zod';
import { BREAKER_BULK_ACTIONS, BULK_MAX_IDS, DOMAIN_BULK_ACTIONS } from './bulk-vocabulary';

const MAX_SERIAL = 2_147_483_647;

const ids = z
  .array(z.number({ message: 'must be an id' }).int('must be an id').positive('must be an id').max(MAX_SERIAL, 'must be an id'), {
    message: 'must be a list of ids',
  })
  .min(1, 'name at least one id')
  .max(BULK_MAX_IDS, `must name at most ${BULK_MAX_IDS} ids`)
  .refine((list) => new Set(list).size === list.length, { message: 'must not name an id twice' });

/** POST /api/circuit-breakers/bulk */
export const breakerBulkSchema = z.strictObject({
  action: z.enum(BREAKER_BULK_ACTIONS, { message: `must be one of ${BREAKER_BULK_ACTIONS.join(', ')}` }),
  ids,
});
export type BreakerBulkRequest = z.infer<typeof breakerBulkSchema>;

/** POST /api/domains/bulk */
export const domainBulkSchema = z.strictObject({
  action: z.enum(DOMAIN_BULK_ACTIONS, { message: `must be one of ${DOMAIN_BULK_ACTIONS.join(', ')}` }),
  ids,
});
export type DomainBulkRequest = z.infer<typeof domainBulkSchema>;
