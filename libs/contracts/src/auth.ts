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

/** Accounts created within this many days count as recent (the "Recent Users" figure). */
export const RECENT_USER_DAYS = 7;

/** The largest page GET /api/users answers; without `limit`, that many. */
export const USERS_PAGE_MAX = 100;

/** The header in which GET /api/users tells how many accounts match, whatever the page. */
export const TOTAL_COUNT_HEADER = 'x-total-count';

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

/** What GET /api/users/summary returns: the figures over every account, whatever page is shown. */
export interface UserSummary {
  total: number;
  active: number;
  pendingInvites: number;
  recent: number;
  /** how many accounts hold each role (roles nobody holds are absent) */
  byRole: Record<string, number>;
}
