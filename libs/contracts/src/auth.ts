import { z } from 'zod';

/** What GET /api/auth/user returns for the signed-in account. */
export const authUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  permissions: z.array(z.string()),
  /** True only for the one account allowed to use /elevate while it is not yet super_admin. */
  canElevate: z.boolean(),
});
export type AuthUser = z.infer<typeof authUserSchema>;
