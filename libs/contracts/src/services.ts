import { z } from 'zod';
import type { BreakerStateName } from './breaker-vocabulary';

/** A service's endpoint: an http(s) URL, or the API's own chaos target /api/chaos/<id>. */
export const CHAOS_PATH = /^\/api\/chaos\/\d+$/;

export const serviceSchema = z.strictObject({
  name: z.string().trim().min(1, 'is required').max(100),
  endpoint: z
    .string()
    .max(2000)
    .refine((value) => CHAOS_PATH.test(value) || /^https?:\/\/[^\s]+$/.test(value), {
      message: 'must be an http(s) URL or /api/chaos/<id>',
    }),
  failureRate: z.number({ message: 'must be a number' }).min(0, 'must be at least 0').max(100, 'must be at most 100'),
  averageResponseTime: z
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be at least 0')
    .max(60_000, 'must be at most 60000'),
  circuitBreakerConfigId: z.number({ message: 'must be a breaker id' }).int().positive().nullable(),
});
/** PATCH: only the fields sent change (an absent breaker id is kept, null unlinks it). */
export const updateServiceSchema = serviceSchema
  .partial()
  .refine((value) => Object.keys(value).length > 0, { message: 'send at least one field to change' });
export const createServiceSchema = serviceSchema.extend({
  circuitBreakerConfigId: serviceSchema.shape.circuitBreakerConfigId.default(null),
});
export const serviceIdSchema = z.coerce
  .number({ message: 'must be a service id' })
  .int('must be a service id')
  .positive('must be a service id');

export interface ServiceView {
  id: number;
  name: string;
  endpoint: string;
  failureRate: number;
  averageResponseTime: number;
  circuitBreakerConfigId: number | null;
}

/** The outcome of one test call (also pushed live as testResult). */
export interface TestResultView {
  serviceId: number;
  success: boolean;
  responseTime: number;
  circuitBreakerState: BreakerStateName;
  statusCode: number | null;
  error: string | null;
  at: string;
}
