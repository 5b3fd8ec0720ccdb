import Ajv2020 from 'ajv/dist/2020';
import { z } from 'zod';
import {
  agentReportSchema,
  boundsIncrease,
  boundsInRange,
  countsInRange,
  histogramShaped,
  namesUnique,
  settingsBounded,
  transitionsBounded,
  type AgentReport,
} from '@cbh/contracts';
import { ZodPipe } from '../../platform';

/*
 * Every instance of every service sends a report every second, and zod's reading of one, which builds a new object for
 * each field it checks, was a sixth of the API's CPU per report in bench:fleet. A report is read first by a validator
 * ajv compiles from the JSON Schema of agentReportSchema, which checks the object where it lies and builds nothing, then
 * by the rules JSON Schema cannot say (the same functions the schema refines with); only a report that fails either is
 * read by zod, which says what is wrong, or takes it (a name to trim). The rules stay those of agentReportSchema alone.
 */

type JsonSchema = { [key: string]: unknown };

/** zod leaves out the fields an object does not name: so does ajv, where `additionalProperties: false` says so. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) out[key] = key === 'properties' ? mapValues(value as JsonSchema) : closed(value);
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

/** A `properties` map names fields rather than being a schema: each of its values is closed, not the map. */
const mapValues = (properties: JsonSchema) => Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, closed(value)]));

// lengths counted in code points as zod counts them (ajv's default); formats left to the patterns zod writes for them
const validate = new Ajv2020({ strict: false, validateFormats: false, removeAdditional: true }).compile(
  closed(z.toJSONSchema(agentReportSchema, { io: 'input', unrepresentable: 'any' })) as JsonSchema,
);

const zodReading = new ZodPipe(agentReportSchema, 'report');

/** zod trims the names it reads: one that needs trimming is left to it. */
const trimmed = (name: string) => name === name.trim();

/** What JSON Schema cannot say of a report the compiled validator passed. */
function keepsTheOtherRules(report: AgentReport): boolean {
  if (!trimmed(report.service) || !trimmed(report.instance)) return false;
  if (!namesUnique(report.breakers) || !transitionsBounded(report.breakers)) return false;
  for (const breaker of report.breakers) {
    if (!trimmed(breaker.name)) return false;
    // zod's record leaves out a key __proto__ (JSON.parse makes it an own key): left to zod, so it is left out here too
    if (breaker.settings && (!settingsBounded(breaker.settings) || Object.hasOwn(breaker.settings, '__proto__'))) return false;
    const histogram = breaker.window.latencyHistogram;
    if (!boundsInRange(histogram.boundsMs) || !countsInRange(histogram.counts)) return false;
    if (!histogramShaped(histogram) || !boundsIncrease(histogram)) return false;
  }
  return true;
}

/**
 * The report in `body` as agentReportSchema reads it: the same object, its unknown fields left out, when it keeps every
 * rule as it is; otherwise zod's reading of it (a name trimmed), or zod's refusal (BadRequestException, saying which
 * fields are wrong and why).
 */
export function readReport(body: unknown): AgentReport {
  return readsQuickly(body) ? body : zodReading.transform(body);
}

/** Whether readReport takes `body` as it is, without zod. */
export function readsQuickly(body: unknown): body is AgentReport {
  return validate(body) && keepsTheOtherRules(body as AgentReport);
}
