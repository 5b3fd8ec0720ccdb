import { z } from 'zod';
import { BREAKER_TYPES } from './breaker-vocabulary';
import { ALERT_SEVERITIES } from './domain-vocabulary';
import {
  channelFieldProblems,
  CHANNEL_TYPES,
  DELIVERY_PAGE_LIMITS,
  DELIVERY_STATUSES,
  ALL_NOTIFICATION_EVENTS,
  NOTIFICATION_EVENTS,
  NOTIFICATION_LIMITS,
  RULE_DEFAULTS,
  windowProblems,
} from './notification-vocabulary';
import { pageLimit } from './paging';
import { isHttpUrl } from './http-url';

const name = z
  .string({ message: 'must be a string' })
  .trim()
  .min(1, 'is required')
  .max(NOTIFICATION_LIMITS.nameLength, `must be at most ${NOTIFICATION_LIMITS.nameLength} characters`);

/** An http(s) URL; whether http is allowed, and which addresses, the server judges by ALLOW_PRIVATE_TARGETS. */
export const channelUrlSchema = z
  .string({ message: 'must be a string' })
  .trim()
  .max(NOTIFICATION_LIMITS.urlLength, `must be at most ${NOTIFICATION_LIMITS.urlLength} characters`)
  .refine(isHttpUrl, { message: 'must be an https URL' });

const email = z.email({ message: 'must be an e-mail address' }).max(254, 'must be at most 254 characters');

const recipients = z
  .array(email, { message: 'must be a list of e-mail addresses' })
  .max(NOTIFICATION_LIMITS.recipients, `must hold at most ${NOTIFICATION_LIMITS.recipients} addresses`);

const secret = z
  .string({ message: 'must be a string' })
  .min(8, 'must be at least 8 characters')
  .max(NOTIFICATION_LIMITS.secretLength, `must be at most ${NOTIFICATION_LIMITS.secretLength} characters`);

const channelFields = {
  name,
  type: z.enum(CHANNEL_TYPES, { message: `must be one of ${CHANNEL_TYPES.join(', ')}` }),
  url: channelUrlSchema.optional(),
  recipients: recipients.optional(),
  secret: secret.optional(),
};

/** POST /api/notification-channels */
export const createChannelSchema = z.strictObject(channelFields).superRefine((channel, ctx) => {
  for (const { path, message } of channelFieldProblems(channel.type, channel, true))
    ctx.addIssue({ code: 'custom', path: [path], message });
});
export type CreateChannel = z.infer<typeof createChannelSchema>;

/** PATCH /api/notification-channels/{id}: what is sent changes; `secret: null` removes the secret. The type stays. */
export const updateChannelSchema = z
  .strictObject({
    name: name.optional(),
    url: channelUrlSchema.optional(),
    recipients: recipients.optional(),
    secret: secret.nullable().optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { message: 'name at least one field to change' });
export type UpdateChannel = z.infer<typeof updateChannelSchema>;

const nameList = z
  .array(z.string({ message: 'must be a name' }).trim().min(1, 'must be a name').max(200), { message: 'must be a list of names' })
  .max(NOTIFICATION_LIMITS.filterItems, `must hold at most ${NOTIFICATION_LIMITS.filterItems} names`);

const minutes = (max: number) =>
  z
    .number({ message: 'must be a number of minutes' })
    .int('must be whole minutes')
    .min(1, 'must be at least 1 minute')
    .max(max, `must be at most ${max} minutes`);

const ruleFields = {
  name,
  enabled: z.boolean({ message: 'must be true or false' }),
  events: z
    .array(z.enum(NOTIFICATION_EVENTS, { message: `must be one of ${NOTIFICATION_EVENTS.join(', ')}` }), {
      message: 'must be a list of event types',
    })
    .min(1, 'name at least one event type')
    .max(NOTIFICATION_EVENTS.length),
  channelIds: z
    .array(
      z.uuid({ message: 'must be a channel id' }).transform((id) => id.toLowerCase()),
      { message: 'must be a list of channel ids' },
    )
    .max(NOTIFICATION_LIMITS.channels),
  escalationPolicyId: z
    .uuid({ message: 'must be an escalation policy id' })
    .transform((id) => id.toLowerCase())
    .nullable(),
  breakers: nameList,
  breakerTypes: z.array(z.enum(BREAKER_TYPES, { message: `must be one of ${BREAKER_TYPES.join(', ')}` })).max(BREAKER_TYPES.length),
  domains: nameList,
  severities: z.array(z.enum(ALERT_SEVERITIES, { message: `must be one of ${ALERT_SEVERITIES.join(', ')}` })).max(ALERT_SEVERITIES.length),
  minIntervalMinutes: z
    .number({ message: 'must be a number of minutes' })
    .int('must be whole minutes')
    .min(0, 'must be at least 0 minutes')
    .max(1440, 'must be at most 1440 minutes'),
  stuckOpenMinutes: minutes(1440),
  flappingOpenings: z
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(2, 'must be at least 2')
    .max(1000, 'must be at most 1000'),
  flappingMinutes: minutes(1440),
};

/** A rule sends to its channels, opens alert groups under its escalation policy, or both: never neither. */
export function reachesSomeone(rule: { channelIds?: string[]; escalationPolicyId?: string | null }, ctx: z.RefinementCtx) {
  if ((rule.channelIds?.length ?? 0) === 0 && !rule.escalationPolicyId) {
    ctx.addIssue({ code: 'custom', path: ['channelIds'], message: 'name at least one channel or an escalation policy' });
  }
}

/** POST /api/notification-rules: events, and channels or an escalation policy; filters and intervals optional. */
export const createRuleSchema = z
  .strictObject({
    name: ruleFields.name,
    enabled: ruleFields.enabled.default(true),
    events: ruleFields.events,
    channelIds: ruleFields.channelIds.default([]),
    escalationPolicyId: ruleFields.escalationPolicyId.default(null),
    breakers: ruleFields.breakers.default([]),
    breakerTypes: ruleFields.breakerTypes.default([]),
    domains: ruleFields.domains.default([]),
    severities: ruleFields.severities.default([]),
    minIntervalMinutes: ruleFields.minIntervalMinutes.default(RULE_DEFAULTS.minIntervalMinutes),
    stuckOpenMinutes: ruleFields.stuckOpenMinutes.default(RULE_DEFAULTS.stuckOpenMinutes),
    flappingOpenings: ruleFields.flappingOpenings.default(RULE_DEFAULTS.flappingOpenings),
    flappingMinutes: ruleFields.flappingMinutes.default(RULE_DEFAULTS.flappingMinutes),
  })
  .superRefine(reachesSomeone);
export type CreateRule = z.infer<typeof createRuleSchema>;

/** PATCH /api/notification-rules/{id}: any field, at least one. */
export const updateRuleSchema = z
  .strictObject({
    name: ruleFields.name.optional(),
    enabled: ruleFields.enabled.optional(),
    events: ruleFields.events.optional(),
    channelIds: ruleFields.channelIds.optional(),
    escalationPolicyId: ruleFields.escalationPolicyId.optional(),
    breakers: ruleFields.breakers.optional(),
    breakerTypes: ruleFields.breakerTypes.optional(),
    domains: ruleFields.domains.optional(),
    severities: ruleFields.severities.optional(),
    minIntervalMinutes: ruleFields.minIntervalMinutes.optional(),
    stuckOpenMinutes: ruleFields.stuckOpenMinutes.optional(),
    flappingOpenings: ruleFields.flappingOpenings.optional(),
    flappingMinutes: ruleFields.flappingMinutes.optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { message: 'name at least one field to change' });
export type UpdateRule = z.infer<typeof updateRuleSchema>;

const instant = z.iso.datetime({ offset: true, message: 'must be a date and time (ISO 8601)' });

const windowFields = {
  name,
  startsAt: instant,
  endsAt: instant,
  repeatWeekly: z.boolean({ message: 'must be true or false' }),
  breakers: nameList,
  domains: nameList,
};

/** POST /api/maintenance-windows */
export const createWindowSchema = z
  .strictObject({
    ...windowFields,
    repeatWeekly: windowFields.repeatWeekly.default(false),
    breakers: windowFields.breakers.default([]),
    domains: windowFields.domains.default([]),
  })
  .superRefine((window, ctx) => {
    for (const { path, message } of windowProblems(window)) ctx.addIssue({ code: 'custom', path: [path], message });
  });
export type CreateWindow = z.infer<typeof createWindowSchema>;

/** PATCH /api/maintenance-windows/{id} */
export const updateWindowSchema = z
  .strictObject({
    name: windowFields.name.optional(),
    startsAt: windowFields.startsAt.optional(),
    endsAt: windowFields.endsAt.optional(),
    repeatWeekly: windowFields.repeatWeekly.optional(),
    breakers: windowFields.breakers.optional(),
    domains: windowFields.domains.optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { message: 'name at least one field to change' });
export type UpdateWindow = z.infer<typeof updateWindowSchema>;

export const notificationIdSchema = z.uuid({ message: 'must be an id' }).transform((id) => id.toLowerCase());

/** GET /api/notification-deliveries: newest first; `before` is the cursor a page gave; filters optional. */
export const deliveryQuerySchema = z.strictObject({
  limit: pageLimit(DELIVERY_PAGE_LIMITS),
  before: z
    .string()
    .regex(/^\d{1,19}$/, 'must be a cursor from a previous page')
    .optional(),
  channelId: notificationIdSchema.optional(),
  event: z
    .enum(ALL_NOTIFICATION_EVENTS as [string, ...string[]], { message: `must be one of ${ALL_NOTIFICATION_EVENTS.join(', ')}` })
    .optional(),
  status: z.enum(DELIVERY_STATUSES, { message: `must be one of ${DELIVERY_STATUSES.join(', ')}` }).optional(),
});
export type DeliveryQuery = z.infer<typeof deliveryQuerySchema>;
