/* The users list's limits and names, zod-free: the screens use them as the API does. */

/** Accounts created within this many days count as recent (the "Recent Users" figure). */
export const RECENT_USER_DAYS = 7;

/** The largest page GET /api/users answers; without `limit`, that many. */
export const USERS_PAGE_MAX = 100;

/** The header in which GET /api/users tells how many accounts match, whatever the page. */
export const TOTAL_COUNT_HEADER = 'x-total-count';

/** What GET /api/users/summary returns: the figures over every account, whatever page is shown. */
export interface UserSummary {
  total: number;
  active: number;
  pendingInvites: number;
  recent: number;
  /** how many accounts hold each role (roles nobody holds are absent) */
  byRole: Record<string, number>;
}
