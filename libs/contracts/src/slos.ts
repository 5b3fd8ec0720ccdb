import { z } from 'zod';
import { REMOTE_NAMES } from './routes';
import { SLO_LIMITS as L, SLO_WINDOWS } from './slo-vocabulary';
import { SERVICE_NAME_PATTERN } from './on-call-vocabulary';

/* The bodies of POST/PATCH /api/slos and the report's query. Words and arithmetic in slo-vocabulary.ts. */

const ids = (what: string) =>
  z
    .array(
      z
        .number({ message: `must be ${what} ids` })
        .int(`must be ${what} ids`)
        .positive(`must be ${what} ids`),
      {
        message: `must be a list of ${what} ids`,
      },
    )
    .min(1, `must name at least one ${what}`)
    .max(L.members, `must name at most ${L.members}`)
    .transform((list) => [...new Set(list)]);

/**
 * Breakers or domains by name, as the configuration document names them (ids differ between hubs): the same bounds as
 * ids, a name given twice in any letter case kept once.
 */
export const sloMemberNamesSchema = (what: 'breaker' | 'domain') =>
  z
    .array(
      z
        .string({ message: `must be ${what} names` })
        .trim()
        .min(1, `must be ${what} names`)
        .max(what === 'domain' ? 253 : 200, `must be ${what} names`),
      { message: `must be a list of ${what} names` },
    )
    .min(1, `must name at least one ${what}`)
    .max(L.members, `must name at most ${L.members}`)
    .transform((list) => list.filter((name, index) => list.findIndex((other) => other.toLowerCase() === name.toLowerCase()) === index));

const service = z
  .string({ message: 'must be a service name' })
  .regex(SERVICE_NAME_PATTERN, 'must be a service name: lower-case letters, digits and dashes, at most 64');

const oneOfBreakersOrService = (indicator: { breakers?: unknown; service?: string }) =>
  (indicator.breakers === undefined) !== (indicator.service === undefined);
const breakersMessage = { message: 'must name either breakers or a service', path: ['breakers'] };

/**
 * An indicator whose breakers and domains are the given members: ids in the API's bodies, names in the configuration
 * document. Breakers are named one by one, or all of one service's: one of the two.
 */
export function sloIndicatorSchemaOf<Breakers extends z.ZodType, Domains extends z.ZodType>(
  breakerMembers: Breakers,
  domainMembers: Domains,
) {
  const breakers = { breakers: breakerMembers.optional(), service: service.optional() };
  return z.discriminatedUnion(
    'kind',
    [
      z.strictObject({ kind: z.literal('breaker-calls'), ...breakers }).refine(oneOfBreakersOrService, breakersMessage),
      z
        .strictObject({
          kind: z.literal('breaker-latency'),
          ...breakers,
          thresholdMs: z
            .number({ message: 'must be a number of milliseconds' })
            .int('must be whole milliseconds')
            .min(1, 'must be at least 1 ms')
            .max(L.thresholdMsMax, `must be at most ${L.thresholdMsMax} ms`),
        })
        .refine(oneOfBreakersOrService, breakersMessage),
      z.strictObject({ kind: z.literal('domain-uptime'), domains: domainMembers }),
      z.strictObject({
        kind: z.literal('remote-loads'),
        remote: z.enum(REMOTE_NAMES, { message: `must be one of ${REMOTE_NAMES.join(', ')}` }),
      }),
    ],
    { message: 'must be an indicator: breaker-calls, breaker-latency, domain-uptime or remote-loads' },
  );
}

export const sloIndicatorSchema = sloIndicatorSchemaOf(ids('breaker'), ids('domain'));

export const createSloSchema = z.strictObject({
  name: z
    .string({ message: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(L.nameLength, `must be at most ${L.nameLength} characters`),
  description: z
    .string({ message: 'must be a string' })
    .trim()
    .max(L.descriptionLength, `must be at most ${L.descriptionLength} characters`)
    .nullable()
    .optional(),
  target: z
    .number({ message: 'must be a percentage such as 99.9' })
    .min(L.targetMin, `must be from ${L.targetMin} to ${L.targetMax}`)
    .max(L.targetMax, `must be from ${L.targetMin} to ${L.targetMax}`)
    // three decimals at most: 99.999 is the finest target a minute's counts can judge
    .refine((target) => Math.abs(target * 1000 - Math.round(target * 1000)) < 1e-6, 'must have at most three decimals'),
  window: z.enum(SLO_WINDOWS, { message: `must be one of ${SLO_WINDOWS.join(', ')}` }),
  indicator: sloIndicatorSchema,
});
export const updateSloSchema = createSloSchema.partial();
export type CreateSlo = z.infer<typeof createSloSchema>;
export type UpdateSlo = z.infer<typeof updateSloSchema>;

/** GET /api/slos/{id}/report?month=YYYY-MM[&format=csv|html] */
export const sloReportQuerySchema = z.strictObject({
  month: z.string({ message: 'is required: YYYY-MM' }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month YYYY-MM'),
  format: z.enum(['html', 'csv'], { message: 'must be html or csv' }).default('html'),
});

/**
 * GET /api/slos/report?service=…&month=YYYY-MM[&format=csv|html]: the month of every SLO of a service, those whose
 * indicator names the service or one of its breakers.
 */
export const sloServiceReportQuerySchema = z.strictObject({
  service,
  ...sloReportQuerySchema.shape,
});
export type SloServiceReportQuery = z.infer<typeof sloServiceReportQuerySchema>;

/** GET /api/slos[?service=…][&breaker=…]: every objective (at most SLO_LIMITS.slos), or those of a service or fed by a breaker. */
export const sloListQuerySchema = z.strictObject({
  service: service.optional(),
  breaker: z.coerce.number({ message: 'must be a breaker id' }).int('must be a breaker id').positive('must be a breaker id').optional(),
});
export type SloListQuery = z.infer<typeof sloListQuerySchema>;
