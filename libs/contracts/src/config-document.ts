import { z } from 'zod';
import { BREAKER_TYPES, type BreakerTypeName } from './breaker-vocabulary';
import { createBreakerSchema } from './breakers';
import { CHAOS_ENDPOINT, CONFIG_DOCUMENT_MAX_ITEMS, CONFIG_DOCUMENT_VERSION, CONFIG_FORMATS } from './config-vocabulary';
import { domainNameSchema } from './domains';
import { CHAOS_PATH, serviceSchema } from './services';

/** The settings only one type of breaker has; a document giving them to another type is refused. */
export const BREAKER_TYPE_SETTINGS: Record<
  BreakerTypeName,
  readonly ('minimumCalls' | 'slowCallDuration' | 'maxConcurrentCalls' | 'maxQueue')[]
> = {
  simple: [],
  adaptive: ['minimumCalls', 'slowCallDuration'],
  bulkhead: ['maxConcurrentCalls', 'maxQueue'],
};
const TYPE_SETTINGS = ['minimumCalls', 'slowCallDuration', 'maxConcurrentCalls', 'maxQueue'] as const;

/** A breaker as the document holds it: what POST /api/circuit-breakers takes, its type's own settings only. */
export const breakerItemSchema = createBreakerSchema.superRefine((item, ctx) => {
  for (const key of TYPE_SETTINGS) {
    if (item[key] !== undefined && !BREAKER_TYPE_SETTINGS[item.type].includes(key)) {
      const owners = BREAKER_TYPES.filter((type) => BREAKER_TYPE_SETTINGS[type].includes(key));
      ctx.addIssue({ code: 'custom', path: [key], message: `is a setting of ${owners.join(', ')} breakers only` });
    }
  }
});

/** A service: its endpoint is an http(s) URL or `chaos`, its own chaos target; its breaker is named, not numbered. */
export const serviceItemSchema = z.strictObject({
  name: serviceSchema.shape.name,
  endpoint: z
    .string({ message: 'must be a string' })
    .max(2000, 'must be at most 2000 characters')
    .refine((value) => value === CHAOS_ENDPOINT || CHAOS_PATH.test(value) || /^https?:\/\/[^\s]+$/.test(value), {
      message: `must be an http(s) URL, ${CHAOS_ENDPOINT} (the service's own chaos target) or /api/chaos/<id>`,
    }),
  failureRate: serviceSchema.shape.failureRate,
  averageResponseTime: serviceSchema.shape.averageResponseTime,
  breaker: createBreakerSchema.shape.name.nullable().default(null),
});

/** A domain, by its name; autoRenew is the owner's choice for its certificate, absent while the checks infer it. */
export const domainItemSchema = z.strictObject({
  name: domainNameSchema,
  autoRenew: z.boolean({ message: 'must be true or false' }).optional(),
});

const list = <T extends z.ZodType>(item: T) =>
  z.array(item, { message: 'must be a list' }).max(CONFIG_DOCUMENT_MAX_ITEMS, `must hold at most ${CONFIG_DOCUMENT_MAX_ITEMS} items`);

/** Items are keyed by name, case-insensitively: a name given twice in one list is refused at its second place. */
function refuseDuplicateNames(items: { name: string }[], kind: string, ctx: z.RefinementCtx) {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const key = item.name.toLowerCase();
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else ctx.addIssue({ code: 'custom', path: [kind, index, 'name'], message: `repeats the name of ${kind}[${first}]` });
  });
}

/** The hub's configuration as GET /api/export writes it and POST /api/import reads it (unknown keys refused). */
export const configDocumentSchema = z
  .strictObject({
    version: z.literal(CONFIG_DOCUMENT_VERSION, { message: `must be ${CONFIG_DOCUMENT_VERSION}` }),
    breakers: list(breakerItemSchema),
    services: list(serviceItemSchema),
    domains: list(domainItemSchema),
  })
  .superRefine((document, ctx) => {
    refuseDuplicateNames(document.breakers, 'breakers', ctx);
    refuseDuplicateNames(document.services, 'services', ctx);
    refuseDuplicateNames(document.domains, 'domains', ctx);
  });

export type ConfigDocument = z.output<typeof configDocumentSchema>;
export type BreakerItem = ConfigDocument['breakers'][number];
export type ServiceItem = ConfigDocument['services'][number];
export type DomainItem = ConfigDocument['domains'][number];

/** A place in the document as people write it: breakers[2].failureThreshold. */
export function documentPath(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join('');
}

/** Each problem of a refused document, with its place: `breakers[2].failureThreshold: must be at most 20`. */
export function documentProblems(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const where = documentPath(issue.path);
      return `${where ? `${where}: ` : ''}unknown key ${issue.keys.join(', ')}`;
    }
    const where = documentPath(issue.path);
    return where ? `${where}: ${issue.message}` : issue.message;
  });
}

/** GET /api/export?format=json|yaml (else by Accept). */
export const exportQuerySchema = z.strictObject({
  format: z.enum(CONFIG_FORMATS, { message: `must be one of ${CONFIG_FORMATS.join(', ')}` }).optional(),
});

const flag = z
  .enum(['true', 'false'], { message: 'must be true or false' })
  .optional()
  .transform((value) => value === 'true');

/** POST /api/import?dryRun=true&prune=true */
export const importQuerySchema = z.strictObject({ dryRun: flag, prune: flag });
export type ImportQuery = z.output<typeof importQuerySchema>;
