import { z } from 'zod';
import { BREAKER_TYPES, type BreakerTypeName } from './breaker-vocabulary';
import { createBreakerSchema } from './breakers';
import { CHAOS_ENDPOINT, CONFIG_DOCUMENT_MAX_ITEMS, CONFIG_DOCUMENT_VERSION, CONFIG_FORMATS, DOCUMENT_LISTS } from './config-vocabulary';
import { domainNameSchema } from './domains';
import { DRILL_LIMITS } from './drill-vocabulary';
import { drillDefinitionSchema } from './drills';
import { ENV_REFERENCE, NOTIFICATION_LIMITS } from './notification-vocabulary';
import { channelFieldProblems } from './notification-vocabulary';
import { channelUrlSchema, createChannelSchema, createRuleSchema, createWindowSchema } from './notifications';
import { createScrapeTargetSchema, SCRAPE_TARGET_LIMITS } from './scrape-targets';
import { CHAOS_PATH, serviceSchema } from './services';
import {
  createEscalationPolicySchema,
  escalationStepSchema,
  createScheduleSchema,
  scheduleOverrideSchema,
  scheduleRotationSchema,
} from './on-call';
import { ON_CALL_LIMITS } from './on-call-vocabulary';
import { SLO_LIMITS } from './slo-vocabulary';
import { createSloSchema, sloIndicatorSchemaOf, sloMemberNamesSchema } from './slos';
import { STATUS_PAGE_LIMITS } from './status-page-vocabulary';
import { createStatusPageSchema, statusComponentSchema } from './status-pages';

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

/**
 * A channel's URL or secret as the document holds it: the value itself, or a reference `${env:NAME}` that the client
 * reading the document fills in from its environment. The hub never fills one in: on a channel it has, a reference
 * left unfilled keeps what it holds; a new channel needs the value.
 */
function valueOrReference(schema: z.ZodType<string, string>, { trim }: { trim: boolean }) {
  const text = z.string({ message: 'must be a string' });
  return (trim ? text.trim() : text).superRefine((value, ctx) => {
    if (ENV_REFERENCE.test(value)) return;
    if (value.startsWith('${env:')) {
      ctx.addIssue({ code: 'custom', message: 'must be a reference ${env:NAME}, NAME of letters, digits and _' });
      return;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
  });
}

export const isEnvReference = (value: string | undefined): value is string => value !== undefined && ENV_REFERENCE.test(value);

/** A notification channel: what POST /api/notification-channels takes, its URL and secret as values or references. */
export const channelItemSchema = z
  .strictObject({
    name: createChannelSchema.shape.name,
    type: createChannelSchema.shape.type,
    url: valueOrReference(channelUrlSchema, { trim: true }).optional(),
    recipients: createChannelSchema.shape.recipients,
    secret: valueOrReference(createChannelSchema.shape.secret.unwrap(), { trim: false }).optional(),
  })
  .superRefine((channel, ctx) => {
    for (const { path, message } of channelFieldProblems(channel.type, channel, true))
      ctx.addIssue({ code: 'custom', path: [path], message });
  });

const rule = createRuleSchema.shape;

/** A notification rule: what POST /api/notification-rules takes, its channels and escalation policy named, not numbered. */
export const notificationRuleItemSchema = z
  .strictObject({
    name: rule.name,
    enabled: rule.enabled,
    events: rule.events,
    channels: z
      .array(createChannelSchema.shape.name, { message: 'must be a list of channel names' })
      .max(NOTIFICATION_LIMITS.channels, `must hold at most ${NOTIFICATION_LIMITS.channels} names`)
      .default([]),
    /** the escalation policy its events open alert groups under, by name (a policy of the document or the hub's) */
    escalationPolicy: createEscalationPolicySchema.shape.name.optional(),
    breakers: rule.breakers,
    breakerTypes: rule.breakerTypes,
    domains: rule.domains,
    severities: rule.severities,
    minIntervalMinutes: rule.minIntervalMinutes,
    stuckOpenMinutes: rule.stuckOpenMinutes,
    flappingOpenings: rule.flappingOpenings,
    flappingMinutes: rule.flappingMinutes,
  })
  .superRefine((item, ctx) => {
    if (item.channels.length === 0 && !item.escalationPolicy)
      ctx.addIssue({ code: 'custom', path: ['channels'], message: 'name at least one channel or an escalationPolicy' });
  });

/** A maintenance window: what POST /api/maintenance-windows takes. */
export const maintenanceWindowItemSchema = createWindowSchema;

/** A scrape target: what POST /api/scrape-targets takes, its bearer token as a value or a reference. */
export const scrapeTargetItemSchema = z.strictObject({
  name: createScrapeTargetSchema.shape.name,
  url: createScrapeTargetSchema.shape.url,
  intervalSeconds: createScrapeTargetSchema.shape.intervalSeconds,
  bearerToken: valueOrReference(createScrapeTargetSchema.shape.bearerToken.unwrap(), { trim: false }).optional(),
});

/**
 * A status page: what POST /api/status-pages takes, keyed by its slug, its components naming breakers as rules do
 * (`payments`, `agent:<service>/<name>`, `scrape:<service>/<name>`) and domains by name.
 */
export const statusPageItemSchema = z.strictObject({
  ...createStatusPageSchema.shape,
  components: z
    .array(
      z.strictObject({
        // ids differ between hubs: a document's components are matched by name
        ...statusComponentSchema.omit({ id: true }).shape,
        breakers: z.array(z.string().trim().min(1).max(200)).max(STATUS_PAGE_LIMITS.membersPerComponent).default([]),
        domains: z.array(z.string().trim().min(1).max(253)).max(STATUS_PAGE_LIMITS.membersPerComponent).default([]),
      }),
    )
    .max(STATUS_PAGE_LIMITS.componentsPerPage)
    .default([]),
});
export type StatusPageItem = z.output<typeof statusPageItemSchema>;

const email = z.email({ message: 'must be an e-mail address' }).max(254);
const byName = z.string().trim().min(1).max(ON_CALL_LIMITS.nameLength);

/** An on-call schedule: what POST /api/schedules takes, its people by e-mail (ids differ between hubs). */
export const scheduleItemSchema = z.strictObject({
  name: createScheduleSchema.shape.name,
  timeZone: createScheduleSchema.shape.timeZone,
  rotations: z
    .array(z.strictObject({ ...scheduleRotationSchema.shape, users: z.array(email).min(1).max(ON_CALL_LIMITS.usersPerRotation) }))
    .max(ON_CALL_LIMITS.rotationsPerSchedule)
    .default([]),
  overrides: z
    .array(z.strictObject({ user: email, start: scheduleOverrideSchema.shape.start, end: scheduleOverrideSchema.shape.end }))
    .max(ON_CALL_LIMITS.overridesPerSchedule)
    .default([]),
});
export type ScheduleItem = z.output<typeof scheduleItemSchema>;

/** An escalation policy: its steps' channels and schedule by name, people by e-mail. */
export const escalationPolicyItemSchema = z.strictObject({
  name: createEscalationPolicySchema.shape.name,
  steps: z
    .array(
      z.strictObject({
        notify: z.strictObject({
          channels: z.array(byName).max(ON_CALL_LIMITS.targetsPerStep).optional(),
          users: z.array(email).max(ON_CALL_LIMITS.targetsPerStep).optional(),
          schedule: byName.optional(),
        }),
        waitMinutes: escalationStepSchema.shape.waitMinutes,
      }),
    )
    .min(1)
    .max(ON_CALL_LIMITS.stepsPerPolicy),
  repeat: createEscalationPolicySchema.shape.repeat,
});
export type EscalationPolicyItem = z.output<typeof escalationPolicyItemSchema>;

/**
 * A service level objective: what POST /api/slos takes, keyed by name, its indicator naming breakers as rules do
 * (`payments`, `agent:<service>/<name>`, `scrape:<service>/<name>`) or a service, and domains by name.
 */
export const sloItemSchema = z.strictObject({
  name: createSloSchema.shape.name,
  description: createSloSchema.shape.description,
  target: createSloSchema.shape.target,
  window: createSloSchema.shape.window,
  indicator: sloIndicatorSchemaOf(sloMemberNamesSchema('breaker'), sloMemberNamesSchema('domain')),
});
export type SloItem = z.output<typeof sloItemSchema>;

/**
 * A saved drill: what POST /api/drills takes, keyed by name, its breakers named as the document names them — one of
 * the hub's by its name (a breaker of this document or the hub's), a service's as `{ service, name }` — never by id.
 */
export const drillItemSchema = drillDefinitionSchema;
export type DrillItem = z.output<typeof drillItemSchema>;

const list = <T extends z.ZodType>(item: T, max: number = CONFIG_DOCUMENT_MAX_ITEMS) =>
  z.array(item, { message: 'must be a list' }).max(max, `must hold at most ${max} items`);

/** Items are keyed by name, case-insensitively: a name given twice in one list is refused at its second place. */
function refuseDuplicateNames(items: { name: string }[] | undefined, kind: string, ctx: z.RefinementCtx) {
  if (!items) return;
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
    // optional: a document without one (an older one, or exported for someone without circuit_breaker_admin) leaves that kind alone
    channels: list(channelItemSchema, NOTIFICATION_LIMITS.channels).optional(),
    notificationRules: list(notificationRuleItemSchema, NOTIFICATION_LIMITS.rules).optional(),
    maintenanceWindows: list(maintenanceWindowItemSchema, NOTIFICATION_LIMITS.windows).optional(),
    scrapeTargets: list(scrapeTargetItemSchema, SCRAPE_TARGET_LIMITS.targets).optional(),
    schedules: list(scheduleItemSchema, ON_CALL_LIMITS.schedules).optional(),
    escalationPolicies: list(escalationPolicyItemSchema, ON_CALL_LIMITS.policies).optional(),
    statusPages: list(statusPageItemSchema, STATUS_PAGE_LIMITS.pagesPerHub).optional(),
    slos: list(sloItemSchema, SLO_LIMITS.slos).optional(),
    drills: list(drillItemSchema, DRILL_LIMITS.definitions).optional(),
    // optional: the lists an export left out as its reader may not read them (written only when there are some)
    omitted: z
      .array(z.enum(DOCUMENT_LISTS, { message: `must be one of ${DOCUMENT_LISTS.join(', ')}` }), {
        message: 'must be a list of list names',
      })
      .max(DOCUMENT_LISTS.length)
      .optional(),
  })
  .superRefine((document, ctx) => {
    // a list left out says nothing of the hub's items: it holds none, and an import leaves that kind alone
    for (const list of new Set(document.omitted)) {
      const items = document[list];
      if (items !== undefined && items.length > 0) {
        ctx.addIssue({ code: 'custom', path: [list], message: 'must be empty, as omitted names it' });
      }
    }
    refuseDuplicateNames(document.breakers, 'breakers', ctx);
    refuseDuplicateNames(document.services, 'services', ctx);
    refuseDuplicateNames(document.domains, 'domains', ctx);
    refuseDuplicateNames(document.channels, 'channels', ctx);
    refuseDuplicateNames(document.notificationRules, 'notificationRules', ctx);
    refuseDuplicateNames(document.maintenanceWindows, 'maintenanceWindows', ctx);
    refuseDuplicateNames(document.scrapeTargets, 'scrapeTargets', ctx);
    refuseDuplicateNames(document.schedules, 'schedules', ctx);
    refuseDuplicateNames(document.escalationPolicies, 'escalationPolicies', ctx);
    refuseDuplicateNames(
      document.statusPages?.map((page) => ({ name: page.slug })),
      'statusPages',
      ctx,
    );
    refuseDuplicateNames(document.slos, 'slos', ctx);
    refuseDuplicateNames(document.drills, 'drills', ctx);
  });

export type ConfigDocument = z.output<typeof configDocumentSchema>;
export type BreakerItem = ConfigDocument['breakers'][number];
export type ServiceItem = ConfigDocument['services'][number];
export type DomainItem = ConfigDocument['domains'][number];
export type ChannelItem = z.output<typeof channelItemSchema>;
export type NotificationRuleItem = z.output<typeof notificationRuleItemSchema>;
export type MaintenanceWindowItem = z.output<typeof maintenanceWindowItemSchema>;
export type ScrapeTargetItem = z.output<typeof scrapeTargetItemSchema>;

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
