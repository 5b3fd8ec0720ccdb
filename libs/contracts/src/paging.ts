import { z } from 'zod';

/** A page size from the query string: a whole number from 1 to max, default when absent. */
export function pageLimit(limits: { default: number; max: number }) {
  return z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(limits.max, `must be at most ${limits.max}`)
    .default(limits.default);
}

/** A row id from the query string that a page starts after (or before). */
export const pageCursor = (what: string) =>
  z.coerce
    .number({ message: `must be ${what}` })
    .int(`must be ${what}`)
    .positive(`must be ${what}`)
    .optional();

/**
 * GET /api/circuit-breakers and /api/services: in id order, at most `limit` rows after the id `after`. A full page
 * carries a `Link: <…?after=N&limit=L>; rel="next"` header to the next one, so the answer stays a plain array.
 */
export const LIST_PAGE_LIMITS = { default: 1000, max: 1000 } as const;
export const listPageQuerySchema = z.strictObject({
  limit: pageLimit(LIST_PAGE_LIMITS),
  after: pageCursor('a row id'),
});
export type ListPageQuery = z.infer<typeof listPageQuerySchema>;
