import { z } from 'zod';
import { USERS_PAGE_MAX } from './user-vocabulary';

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

/**
 * GET /api/users?search&limit&offset: people's accounts, oldest first, a page at a time; `search` matches the
 * e-mail or the name (any part, any letter case). The answer stays an array (the page), the match count in
 * TOTAL_COUNT_HEADER.
 */
export const usersQuerySchema = z.strictObject({
  search: z.string().trim().max(254, { message: 'must be 254 characters or fewer' }).optional(),
  limit: z.coerce.number().int().min(1).max(USERS_PAGE_MAX).default(USERS_PAGE_MAX),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type UsersQuery = z.input<typeof usersQuerySchema>;
