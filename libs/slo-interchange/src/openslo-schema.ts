import { z } from 'zod';

/*
 * The SLO kind of OpenSLO v1, written from the specification's text (the OpenSLO/OpenSLO repository's README,
 * "General Schema", "SLO", "Objectives" and "SLI"): the project publishes no JSON schema of v1 (a proof of concept was
 * removed from the repository in 2024), so this is the schema an imported document is held to before the hub reads
 * it. It checks what the specification says of every field, and no more: whether the hub can hold the SLO is asked
 * afterwards (openslo-import.ts), so that a document that is not OpenSLO at all is told so in OpenSLO's words.
 */

/** RFC 1123 names, which every implementation must support; dotted subdomains as well, as Kubernetes' names allow. */
const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
const name = z
  .string({ message: 'must be a name' })
  .max(253, 'must be at most 253 characters')
  .regex(NAME, 'must be an RFC 1123 name: lower-case letters, digits and dashes, starting and ending with a letter or digit');

/** A positive whole number and one of m h d w M Q Y: 30d, 4w, 1M. */
export const DURATION_SHORTHAND = /^[1-9][0-9]*[mhdwMQY]$/;
const duration = z
  .string({ message: 'must be a duration such as 30d' })
  .regex(DURATION_SHORTHAND, 'must be a duration shorthand: a positive whole number and one of m h d w M Q Y, such as 30d');

const description = z.string({ message: 'must be a string' }).max(1050, 'must be at most 1050 characters');

const LABEL_KEY = /^[a-zA-Z0-9]([a-zA-Z0-9._-]{0,61}[a-zA-Z0-9])?$/;
const DNS_SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** An annotation's key: an optional DNS subdomain and a slash, then a name as a label's key. */
function annotationKeyProblem(key: string): string | null {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : null;
  if (prefix !== null && !DNS_SUBDOMAIN.test(prefix)) return `the prefix of ${key} must be a DNS subdomain`;
  if (!LABEL_KEY.test(key.slice(slash + 1))) return `the name of ${key} must be at most 63 letters, digits, dashes, dots or underscores`;
  return null;
}

export const opensloMetadataSchema = z.strictObject({
  name,
  displayName: z.string({ message: 'must be a string' }).min(1, 'must not be empty').optional(),
  labels: z
    .record(
      z.string().regex(LABEL_KEY, 'must be a label key'),
      z.union([z.string(), z.array(z.string())], 'must be a string or a list of strings'),
    )
    .optional(),
  annotations: z
    .record(z.string(), z.string({ message: 'must be a string' }))
    .superRefine((annotations, context) => {
      for (const key of Object.keys(annotations)) {
        const problem = annotationKeyProblem(key);
        if (problem) context.addIssue({ code: 'custom', message: problem, path: [key] });
      }
    })
    .optional(),
});

/** Where a metric comes from: a DataSource's name, or a type; `spec` is the source's own and anything goes there. */
export const opensloMetricSourceSchema = z
  .strictObject({
    metricSourceRef: z.string({ message: 'must be a name' }).min(1, 'must not be empty').optional(),
    type: z.string({ message: 'must be a string' }).min(1, 'must not be empty').optional(),
    spec: z.record(z.string(), z.unknown(), 'must be a mapping: the source’s own fields'),
  })
  .refine((source) => source.metricSourceRef !== undefined || source.type !== undefined, {
    message: 'must have a type when it names no DataSource (metricSourceRef)',
    path: ['type'],
  });
const metric = z.strictObject({ metricSource: opensloMetricSourceSchema });

const ratioMetric = z
  .strictObject({
    counter: z.boolean({ message: 'must be true or false' }).optional(),
    good: metric.optional(),
    bad: metric.optional(),
    total: metric.optional(),
    rawType: z.enum(['success', 'failure'], { message: 'must be success or failure' }).optional(),
    raw: metric.optional(),
  })
  .superRefine((ratio, context) => {
    const problem = (message: string, key: string) => context.addIssue({ code: 'custom', message, path: [key] });
    // the specification has it ignored with raw only, so it is read (and required) everywhere else
    if (ratio.raw === undefined && ratio.counter === undefined) problem('is required: true for a counter that only goes up', 'counter');
    if (ratio.raw !== undefined) {
      if (ratio.good ?? ratio.bad ?? ratio.total) problem('raw cannot be used with good, bad or total', 'raw');
      if (ratio.rawType === undefined) problem('is required with raw', 'rawType');
      return;
    }
    if (ratio.good !== undefined && ratio.bad !== undefined) problem('either good or bad, not both', 'bad');
    if (ratio.good === undefined && ratio.bad === undefined) problem('either good or bad is required with total', 'good');
    if (ratio.total === undefined) problem('is required (or raw)', 'total');
    if (ratio.rawType !== undefined) problem('is used only with raw', 'rawType');
  });

export const opensloIndicatorSpecSchema = z
  .strictObject({
    description: description.optional(),
    thresholdMetric: metric.optional(),
    ratioMetric: ratioMetric.optional(),
  })
  .refine((spec) => (spec.thresholdMetric === undefined) !== (spec.ratioMetric === undefined), {
    message: 'must have either thresholdMetric or ratioMetric',
    path: ['ratioMetric'],
  });
/** An SLI given inline in an SLO: the SLI kind's metadata and spec. */
const inlineIndicator = z.strictObject({ metadata: opensloMetadataSchema, spec: opensloIndicatorSpecSchema });

const timeWindow = z
  .strictObject({
    duration,
    isRolling: z.boolean({ message: 'must be true or false' }).optional(),
    calendar: z
      .strictObject({
        startTime: z
          .string({ message: 'must be a date and time such as 2020-01-21 12:30:00' })
          .regex(
            /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/,
            'must be a date and time such as 2020-01-21 12:30:00',
          ),
        timeZone: z.string({ message: 'must be a time zone name such as America/New_York' }).min(1, 'must not be empty'),
      })
      .optional(),
  })
  .refine((window) => window.isRolling === true || window.calendar !== undefined, {
    message: 'a window that is not rolling (isRolling: true) needs a calendar',
    path: ['calendar'],
  });

const objective = z
  .strictObject({
    displayName: z.string({ message: 'must be a string' }).min(1, 'must not be empty').optional(),
    op: z.enum(['lte', 'gte', 'lt', 'gt'], { message: 'must be lte, gte, lt or gt' }).optional(),
    value: z.number({ message: 'must be a number' }).optional(),
    target: z.number({ message: 'must be a ratio from 0 to 1' }).min(0, 'must be at least 0').lt(1, 'must be below 1').optional(),
    targetPercent: z
      .number({ message: 'must be a percentage from 0 to 100' })
      .min(0, 'must be at least 0')
      .lt(100, 'must be below 100')
      .optional(),
    timeSliceTarget: z.number({ message: 'must be a ratio' }).gt(0, 'must be above 0').max(1, 'must be at most 1').optional(),
    timeSliceWindow: z.union([duration, z.number().positive()], 'must be a duration shorthand or a number of minutes').optional(),
    indicator: inlineIndicator.optional(),
    indicatorRef: name.optional(),
    compositeWeight: z.number({ message: 'must be a number' }).gt(0, 'must be above 0').optional(),
  })
  .refine((o) => (o.target === undefined) !== (o.targetPercent === undefined), {
    message: 'must have either target or targetPercent',
    path: ['target'],
  });

const alertPolicy = z.union(
  [z.strictObject({ alertPolicyRef: name }), z.looseObject({ kind: z.literal('AlertPolicy') })],
  'must be an alertPolicyRef or an inline AlertPolicy',
);

export const opensloSloSpecSchema = z
  .strictObject({
    description: description.optional(),
    service: name,
    indicator: inlineIndicator.optional(),
    indicatorRef: name.optional(),
    timeWindow: z.array(timeWindow).length(1, 'must hold exactly one window').optional(),
    budgetingMethod: z.enum(['Occurrences', 'Timeslices', 'RatioTimeslices'], {
      message: 'must be Occurrences, Timeslices or RatioTimeslices',
    }),
    objectives: z.array(objective, 'must be a list of objectives').min(1, 'must hold at least one objective'),
    alertPolicies: z.array(alertPolicy).optional(),
  })
  .superRefine((spec, context) => {
    const problem = (message: string, path: (string | number)[]) => context.addIssue({ code: 'custom', message, path });
    if (spec.indicator !== undefined && spec.indicatorRef !== undefined)
      problem('either indicator or indicatorRef, not both', ['indicatorRef']);
    // a composite SLO names its indicators in its objectives instead
    const inObjectives = spec.objectives.every((o) => o.indicator !== undefined || o.indicatorRef !== undefined);
    if (spec.indicator === undefined && spec.indicatorRef === undefined && !inObjectives) {
      problem('is required (or indicatorRef, or an indicator in every objective of a composite SLO)', ['indicator']);
    }
    spec.objectives.forEach((o, i) => {
      if (spec.budgetingMethod === 'Timeslices' && o.timeSliceTarget === undefined) {
        problem('is required when budgetingMethod is Timeslices', ['objectives', i, 'timeSliceTarget']);
      }
      if (spec.budgetingMethod !== 'Occurrences' && o.timeSliceWindow === undefined) {
        problem(`is required when budgetingMethod is ${spec.budgetingMethod}`, ['objectives', i, 'timeSliceWindow']);
      }
    });
  });

/** One OpenSLO v1 document of kind SLO. */
export const opensloSloSchema = z.strictObject({
  apiVersion: z.literal('openslo/v1', { message: 'must be openslo/v1' }),
  kind: z.literal('SLO', { message: 'must be SLO' }),
  metadata: opensloMetadataSchema,
  spec: opensloSloSpecSchema,
});
export type OpenSloSlo = z.infer<typeof opensloSloSchema>;
export type OpenSloMetricSource = z.infer<typeof opensloMetricSourceSchema>;

/** OpenSLO v1's kinds, to tell a document of another kind from one that is not OpenSLO. */
export const OPENSLO_KINDS = ['DataSource', 'SLO', 'SLI', 'AlertPolicy', 'AlertCondition', 'AlertNotificationTarget', 'Service'] as const;
