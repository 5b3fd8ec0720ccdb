import { z } from 'zod';
import { FAULT_KINDS } from './agent-protocol';
import { BREAKER_STATES } from './breaker-vocabulary';
import { DRILL_LIMITS as L } from './drill-vocabulary';

/* The body of POST /api/drills. Words, views and limits in drill-vocabulary.ts. */

/** A breaker by its id on the hub, or by the service and name an agent reports it by. */
const breakerRef = z.union(
  [
    z.number().int().positive(),
    z.strictObject({
      service: z.string().trim().min(1, 'must name a service').max(200),
      name: z.string().trim().min(1, 'must name a breaker').max(200),
    }),
  ],
  { message: 'must be a breaker id, or { service, name }' },
);

const faultSchema = z
  .strictObject({
    kind: z.enum(FAULT_KINDS, { message: `must be one of ${FAULT_KINDS.join(', ')}` }),
    rate: z.number({ message: 'must be a share of calls from 0 to 1' }).min(0, 'must be at least 0').max(1, 'must be at most 1'),
    latencyMs: z.number().int().min(1, 'must be at least 1').max(L.latencyMsMax, `must be at most ${L.latencyMsMax}`).optional(),
  })
  .refine((fault) => fault.kind !== 'latency' || fault.latencyMs !== undefined, {
    message: 'a latency fault needs latencyMs',
    path: ['latencyMs'],
  });

export const drillStepSchema = z.strictObject({
  breaker: breakerRef,
  fault: faultSchema,
  instances: z.union([z.literal('all'), z.number().int().min(1).max(100)], { message: "must be 'all' or a percentage from 1 to 100" }),
  durationSeconds: z
    .number({ message: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1')
    .max(L.durationSecondsMax, `must be at most ${L.durationSecondsMax}`),
});

export const drillExpectationSchema = z.strictObject({
  breaker: breakerRef,
  state: z.enum(BREAKER_STATES, { message: `must be one of ${BREAKER_STATES.join(', ')}` }),
  withinSeconds: z.number().int().min(1, 'must be at least 1').max(L.withinSecondsMax, `must be at most ${L.withinSecondsMax}`),
  after: z.enum(['start', 'end'], { message: "must be 'start' or 'end'" }),
});

/** POST /api/drills: starts at once. Steps run one after the other. */
export const createDrillSchema = z.strictObject({
  name: z
    .string({ message: 'must be a name' })
    .trim()
    .min(1, 'must not be empty')
    .max(L.nameLength, `must be at most ${L.nameLength} characters`),
  steps: z
    .array(drillStepSchema, { message: 'must be a list of steps' })
    .min(1, 'name at least one step')
    .max(L.steps, `must hold at most ${L.steps} steps`),
  expectations: z.array(drillExpectationSchema).max(L.expectations, `must hold at most ${L.expectations} expectations`).optional(),
});
export type CreateDrill = z.infer<typeof createDrillSchema>;
export type DrillStepInput = z.infer<typeof drillStepSchema>;
export type DrillExpectationInput = z.infer<typeof drillExpectationSchema>;
