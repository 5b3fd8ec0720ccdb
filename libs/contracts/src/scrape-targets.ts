import { z } from 'zod';
import { channelUrlSchema } from './notifications';

/*
 * Prometheus endpoints the hub scrapes for resilience4j's circuit-breaker metrics (Micrometer's names). Each
 * target's breakers appear on the wall read-only, with `service` the target's name.
 */

export const SCRAPE_TARGET_LIMITS = {
  /** Targets there may be in all. */
  targets: 100,
  nameLength: 64,
  intervalSeconds: { min: 5, max: 3600, default: 15 },
  tokenLength: 4096,
  /** The largest exposition read (bytes); a bigger one is an error of the target's. */
  responseBytes: 5 * 1024 * 1024,
  /** How long one scrape may take. */
  timeoutMs: 10_000,
} as const;

const L = SCRAPE_TARGET_LIMITS;
const name = z
  .string({ message: 'must be a string' })
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be 1 to 64 characters of a-z, 0-9 and -, starting with a letter or digit');
const interval = z
  .number({ message: 'must be a number' })
  .int('must be a whole number of seconds')
  .min(L.intervalSeconds.min, `must be at least ${L.intervalSeconds.min} seconds`)
  .max(L.intervalSeconds.max, `must be at most ${L.intervalSeconds.max} seconds`);
const token = z
  .string({ message: 'must be a string' })
  .min(1, 'must not be empty')
  .max(L.tokenLength, `must be at most ${L.tokenLength} characters`);

/** POST /api/scrape-targets */
export const createScrapeTargetSchema = z.strictObject({
  name,
  url: channelUrlSchema,
  intervalSeconds: interval.default(L.intervalSeconds.default),
  bearerToken: token.optional(),
});

/** PATCH /api/scrape-targets/{id}: any field; `bearerToken: null` removes the token. */
export const updateScrapeTargetSchema = z
  .strictObject({ name, url: channelUrlSchema, intervalSeconds: interval, bearerToken: token.nullable() })
  .partial()
  .refine((value) => Object.keys(value).length > 0, { message: 'send at least one of name, url, intervalSeconds, bearerToken' });

export type CreateScrapeTarget = z.infer<typeof createScrapeTargetSchema>;
export type UpdateScrapeTarget = z.infer<typeof updateScrapeTargetSchema>;

/** A target as the API answers it: the token is never sent back, only whether one is set. */
export interface ScrapeTargetView {
  id: number;
  name: string;
  url: string;
  intervalSeconds: number;
  bearerTokenSet: boolean;
  /** ISO 8601, null before the first scrape. */
  lastScrapeAt: string | null;
  /** Why the last scrape failed, null when it worked. */
  lastError: string | null;
  /** Breakers the last good scrape found. */
  breakers: number | null;
  createdAt: string;
  updatedAt: string;
}
