import { z } from 'zod';
import { AGENT_LIBRARIES, AGENT_PROTOCOL_LIMITS, AGENT_PROTOCOL_VERSION, type AgentReport } from './agent-protocol';
import { BREAKER_OVERRIDES, BREAKER_STATES } from './breaker-vocabulary';

/*
 * The hub's reading of an agent's report (agent-protocol.ts has the words; this module the rules, for the API only).
 * Unknown fields are ignored, so that a newer agent of the same version can add some; every list and string is
 * bounded.
 */

const L = AGENT_PROTOCOL_LIMITS;
const name = z.string().trim().min(1).max(L.nameLength);
const MAX_COUNT = 1e9;
const MAX_MILLIS = 86_400_000;
const count = z.int().min(0).max(MAX_COUNT);
const millis = z.number().finite().min(0).max(MAX_MILLIS);
/*
 * The rules JSON Schema cannot say, each once: the schema below refines with them, and the API's quick reading of a
 * report (api/src/breakers/fleet/report-reading.ts) checks them after the JSON Schema made of this one.
 */
/** A histogram's bounds: numbers from 0 to MAX_MILLIS ms. */
export const boundsInRange = (values: readonly number[]) => values.every((n) => n >= 0 && n <= MAX_MILLIS && Number.isFinite(n));
/** A histogram's counts: whole numbers from 0 to MAX_COUNT. */
export const countsInRange = (values: readonly number[]) => values.every((n) => n >= 0 && n <= MAX_COUNT && Number.isInteger(n));
/** A histogram's counts have one more entry than its bounds (the calls above the last bound). */
export const histogramShaped = (histogram: { boundsMs: readonly number[]; counts: readonly number[] }) =>
  histogram.counts.length === histogram.boundsMs.length + 1;
/** A histogram's bounds increase. */
export const boundsIncrease = (histogram: { boundsMs: readonly number[] }) =>
  histogram.boundsMs.every((bound, i) => i === 0 || bound > histogram.boundsMs[i - 1]!);
/** A breaker's settings: at most 50. */
export const settingsBounded = (settings: Record<string, unknown>) => Object.keys(settings).length <= 50;
/** The hub keys breakers by name whatever the letter case, as their unique index does. */
export const namesUnique = (breakers: readonly { name: string }[]) =>
  new Set(breakers.map((breaker) => breaker.name.toLowerCase())).size === breakers.length;
/** A report's moves, all its breakers' together, within AGENT_PROTOCOL_LIMITS.transitionsPerReport. */
export const transitionsBounded = (breakers: readonly { transitions: readonly unknown[] }[]) =>
  breakers.reduce((sum, breaker) => sum + breaker.transitions.length, 0) <= L.transitionsPerReport;

/**
 * A list of numbers checked in one pass rather than element by element: every report of every instance carries two
 * per breaker, and zod's checks of each element were a third of reading a report.
 */
const numbers = (inRange: (values: readonly number[]) => boolean, message: string) => z.array(z.number()).refine(inRange, { message });

const windowSchema = z.object({
  successes: count,
  failures: count,
  timeouts: count,
  rejections: count,
  slowCalls: count.optional(),
  latencyHistogram: z
    .object({
      boundsMs: numbers(boundsInRange, `boundsMs must be from 0 to ${MAX_MILLIS} ms`).max(L.histogramBins - 1),
      counts: numbers(countsInRange, `counts must be whole numbers from 0 to ${MAX_COUNT}`).min(1).max(L.histogramBins),
    })
    .refine(histogramShaped, { message: 'counts must have one more entry than boundsMs' })
    .refine(boundsIncrease, { message: 'boundsMs must increase' }),
  longestCallMs: millis,
});

const breakerSchema = z.object({
  name,
  library: z.enum(AGENT_LIBRARIES),
  type: z.string().min(1).max(50),
  settings: z
    .record(z.string().max(64), z.union([z.number().finite(), z.string().max(200), z.boolean()]))
    .refine(settingsBounded, { message: 'at most 50 settings' })
    .optional(),
  state: z.enum(BREAKER_STATES),
  override: z.enum(BREAKER_OVERRIDES),
  window: windowSchema,
  transitions: z
    .array(
      z.object({
        from: z.enum(BREAKER_STATES),
        to: z.enum(BREAKER_STATES),
        at: z.iso.datetime({ offset: true }),
        reason: z.string().max(500),
      }),
    )
    .max(L.transitionsPerReport),
});

export const agentReportSchema = z.object({
  version: z.literal(AGENT_PROTOCOL_VERSION),
  service: name,
  instance: name,
  sentAt: z.iso.datetime({ offset: true }),
  periodMs: z.number().int().min(1).max(86_400_000).optional(),
  id: z.string().min(1).max(L.reportIdLength).optional(),
  breakers: z
    .array(breakerSchema)
    .max(L.breakersPerInstance)
    .refine(namesUnique, { message: 'breaker names must be unique within a report, whatever their letter case' })
    .refine(transitionsBounded, { message: `at most ${L.transitionsPerReport} transitions in all` }),
  faults: z
    .object({
      allowed: z.boolean(),
      active: z.array(z.string().max(L.reportIdLength)).max(L.faultsPerInstance),
      refused: z
        .array(z.object({ id: z.string().max(L.reportIdLength), reason: z.string().max(500) }))
        .max(L.faultsPerInstance)
        .optional(),
    })
    .optional(),
}) satisfies z.ZodType<AgentReport, unknown>;

/** Refuses, before anything else is read, a report of a version this hub does not speak. */
export function unsupportedVersionMessage(body: unknown): string | null {
  const version = (body as { version?: unknown } | null)?.version;
  if (version === AGENT_PROTOCOL_VERSION) return null;
  return `Agent protocol version ${JSON.stringify(version ?? null)} is not supported: this hub speaks version ${AGENT_PROTOCOL_VERSION}`;
}
