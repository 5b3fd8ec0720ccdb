import { z } from 'zod';
import { releaseRemotesSchema } from './releases';
import { SERVICE_ACCOUNT_NAME_PATTERN } from './service-account-vocabulary';
import { permissionsSchema, roleSchema } from './users';

export const createServiceAccountSchema = z.strictObject({
  name: z.string().regex(SERVICE_ACCOUNT_NAME_PATTERN, 'must be 1 to 64 characters of a-z, 0-9 and -'),
  role: roleSchema.optional(),
  permissions: permissionsSchema.optional(),
  /** The remotes its tokens may release; absent: every remote. */
  remotes: releaseRemotesSchema.optional(),
});

export const updateServiceAccountSchema = z
  .strictObject({
    isActive: z.boolean({ message: 'must be true or false' }).optional(),
    role: roleSchema.optional(),
    permissions: permissionsSchema.optional(),
    /** null: every remote again. */
    remotes: releaseRemotesSchema.nullable().optional(),
  })
  .refine(
    (body) => body.isActive !== undefined || body.role !== undefined || body.permissions !== undefined || body.remotes !== undefined,
    { message: 'give at least one of isActive, role, permissions, remotes' },
  );

export const serviceAccountIdSchema = z.uuid({ message: 'must be a service account id' }).transform((id) => id.toLowerCase());
