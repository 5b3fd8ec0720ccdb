import { z } from 'zod';
import { releaseRemotesSchema } from './releases';
import { PERMISSIONS } from './roles';
import { TOKEN_MAX_DAYS } from './token-vocabulary';

/** How long a token lives: whole days, up to TOKEN_MAX_DAYS (an organization's own limit stays within it too). */
export const tokenDaysSchema = z
  .number({ message: 'must be a number of days' })
  .int('must be whole days')
  .min(1, 'must be at least 1 day')
  .max(TOKEN_MAX_DAYS, `must be at most ${TOKEN_MAX_DAYS} days`);

export const createTokenSchema = z.strictObject({
  name: z.string().trim().min(1, 'is required').max(100),
  expiresInDays: tokenDaysSchema,
  permissions: z
    .array(z.enum(PERMISSIONS, { message: 'is not a known permission' }))
    .max(PERMISSIONS.length)
    .optional(),
  /** The remotes the token may release (upload, promote, roll back…); absent: every remote its owner may. */
  remotes: releaseRemotesSchema.optional(),
});

export const tokenIdSchema = z.uuid({ message: 'must be a token id' }).transform((id) => id.toLowerCase());
