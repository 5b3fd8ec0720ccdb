import { z } from 'zod';
import { FAULT_KINDS } from './agent-protocol';
import { BREAKER_STATES } from './breaker-vocabulary';
import { createBreakerSchema } from './breakers';
import { DRILL_LIMITS as L } from './drill-vocabulary';

/* The body of POST /api/drills, and a saved drill. Words, views and limits in drill-vocabulary.ts. */

/** A service's breaker by the service and the name its agent reports it by. */
const agentBreakerRef = z.strictObject({
  service: z.string().trim().min(1, 'must name a service').max(200),
  name: z.string().trim().min(1, 'must name a breaker').max(200),
});

/** A breaker by its id on the hub, or by the service and name an agent reports it by. */
const breakerRef = z.union([z.number().int().positive(), agentBreakerRef], { message: 'must be a breaker id, or { service, name }' });

/** A breaker a saved drill names, as the configuration document does (ids differ between hubs): a hub breaker's name, or { service, name }. */
const namedBreakerRef = z.union([createBreakerSchema.shape.name, agentBreakerRef], {
  message: "must be the name of one of the hub's breakers, or { service, name }",
});

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

const drillName = z
  .string({ message: 'must be a name' })
  .trim()
  .min(1, 'must not be empty')
  .max(L.nameLength, `must be at most ${L.nameLength} characters`);

const stepsOf = <T extends z.ZodType>(step: T) =>
  z.array(step, { message: 'must be a list of steps' }).min(1, 'name at least one step').max(L.steps, `must hold at most ${L.steps} steps`);

const expectationsOf = <T extends z.ZodType>(expectation: T) =>
  z.array(expectation).max(L.expectations, `must hold at most ${L.expectations} expectations`);

/** POST /api/drills: starts at once. Steps run one after the other. */
export const createDrillSchema = z.strictObject({
  name: drillName,
  steps: stepsOf(drillStepSchema),
  expectations: expectationsOf(drillExpectationSchema).optional(),
});
export type CreateDrill = z.infer<typeof createDrillSchema>;
export type DrillStepInput = z.infer<typeof drillStepSchema>;
export type DrillExpectationInput = z.infer<typeof drillExpectationSchema>;

/**
 * A saved drill, as the configuration document's `drills` holds it: what POST /api/drills takes, its breakers named
 * (a hub breaker's name, or { service, name }), never by id; started by POST /api/drill-definitions/{id}/run.
 */
export const drillDefinitionSchema = z.strictObject({
  name: drillName,
  steps: stepsOf(z.strictObject({ ...drillStepSchema.shape, breaker: namedBreakerRef })),
  expectations: expectationsOf(z.strictObject({ ...drillExpectationSchema.shape, breaker: namedBreakerRef })).default([]),
});
export type DrillDefinition = z.output<typeof drillDefinitionSchema>;
