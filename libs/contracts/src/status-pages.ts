import { z } from 'zod';
import { pageCursor, pageLimit } from './paging';
import {
  COMPONENT_STATES,
  INCIDENT_IMPACTS,
  INCIDENT_STATUSES,
  STATUS_PAGE_LIMITS,
  STATUS_PAGE_SLUG,
  type ComponentState,
  type IncidentImpact,
  type IncidentStatus,
} from './status-page-vocabulary';

/*
 * The bodies of POST/PATCH /api/status-pages: a page (slug, title, description, public) and its components, each
 * naming the hub's breakers and domains by id. The states and the rule that derives them are in
 * status-page-vocabulary.ts.
 */

const L = STATUS_PAGE_LIMITS;

const text = (max: number) =>
  z.string({ message: 'must be a string' }).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const ids = z
  .array(z.number({ message: 'must be a number' }).int('must be a whole number').positive('must be an id'), {
    message: 'must be a list of ids',
  })
  .max(L.membersPerComponent, `must hold at most ${L.membersPerComponent} ids`)
  .transform((list) => [...new Set(list)]);

export const statusComponentSchema = z.strictObject({
  /** an existing component's id: it keeps its history and incidents through a rename; new components have none */
  id: z.number({ message: 'must be a number' }).int('must be a whole number').positive('must be an id').optional(),
  name: text(L.nameLength),
  description: text(L.descriptionLength).optional(),
  group: text(L.groupLength).optional(),
  breakers: ids.default([]),
  domains: ids.default([]),
});

const slug = z
  .string({ message: 'must be a string' })
  .trim()
  .max(L.slugLength, `must be at most ${L.slugLength} characters`)
  .regex(STATUS_PAGE_SLUG, 'must be lower-case letters, digits and single hyphens, e.g. payments or eu-checkout');

const components = z
  .array(statusComponentSchema, { message: 'must be a list of components' })
  .max(L.componentsPerPage, `must hold at most ${L.componentsPerPage} components`)
  .refine((list) => new Set(list.map((component) => component.name.toLowerCase())).size === list.length, {
    message: 'must not name two components alike',
  });

const pageFields = {
  slug,
  title: text(L.titleLength),
  description: text(L.descriptionLength),
  public: z.boolean({ message: 'must be true or false' }),
  /** the page's header and links (appearance) */
  accentColor: z.string({ message: 'must be a string' }).regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour such as #0b6bcb'),
  components,
};

/** POST /api/status-pages */
export const createStatusPageSchema = z.strictObject({
  ...pageFields,
  description: pageFields.description.optional(),
  accentColor: pageFields.accentColor.optional(),
  components: components.default([]),
});

/** PATCH /api/status-pages/{id}: any field (no defaults: what is not sent stays); `components` replaces the list. */
export const updateStatusPageSchema = z
  .strictObject({ ...pageFields, description: pageFields.description.nullable(), accentColor: pageFields.accentColor.nullable() })
  .partial()
  .refine((value) => Object.keys(value).length > 0, { message: 'send at least one of slug, title, description, public, components' });

export type CreateStatusPage = z.infer<typeof createStatusPageSchema>;
export type UpdateStatusPage = z.infer<typeof updateStatusPageSchema>;
export type StatusComponentInput = z.infer<typeof statusComponentSchema>;

/** A state as a write names it (an incident setting a component's state by hand). */
export const componentStateSchema = z.enum(COMPONENT_STATES, { message: `must be one of ${COMPONENT_STATES.join(', ')}` });

/** A component as the API answers it: what it includes, and its state now. */
export interface StatusComponentView {
  id: number;
  name: string;
  description: string | null;
  group: string | null;
  breakers: number[];
  domains: number[];
  state: ComponentState;
}

export interface StatusPageView {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  public: boolean;
  accentColor: string | null;
  /** the worst of its components' states */
  state: ComponentState;
  components: StatusComponentView[];
  createdAt: string;
  updatedAt: string;
}

/** POST /api/status-pages/{id}/incidents */
export const createIncidentSchema = z.strictObject({
  title: text(L.incidentTitleLength),
  impact: z.enum(INCIDENT_IMPACTS, { message: `must be one of ${INCIDENT_IMPACTS.join(', ')}` }),
  components: z
    .array(z.strictObject({ id: z.number({ message: 'must be a number' }).int().positive('must be an id'), state: componentStateSchema }), {
      message: 'must be a list of { id, state }',
    })
    .max(L.componentsPerIncident, `must hold at most ${L.componentsPerIncident} components`)
    .default([])
    .refine((list) => new Set(list.map((entry) => entry.id)).size === list.length, { message: 'must not name a component twice' }),
  message: text(L.messageLength),
});
export type CreateIncident = z.infer<typeof createIncidentSchema>;

/** POST /api/status-pages/{id}/incidents/{incidentId}/updates */
export const incidentUpdateSchema = z.strictObject({
  status: z.enum(INCIDENT_STATUSES, { message: `must be one of ${INCIDENT_STATUSES.join(', ')}` }),
  message: text(L.messageLength),
});
export type IncidentUpdateInput = z.infer<typeof incidentUpdateSchema>;

/** GET /api/status-pages/{id}/incidents: newest first, `before` an incident id for the next page. */
export const incidentListQuerySchema = z.strictObject({
  state: z.enum(['open', 'resolved'], { message: 'must be open or resolved' }).optional(),
  before: pageCursor('an incident id'),
  limit: pageLimit({ default: L.incidentsPerPage, max: 100 }),
});
export type IncidentListQuery = z.infer<typeof incidentListQuerySchema>;

/** POST /api/public/status/{slug}/subscriptions: components are ids of the page's components; none means all. */
export const subscriptionRequestSchema = z.strictObject({
  email: z.email({ message: 'must be an e-mail address' }).max(254, 'must be at most 254 characters'),
  components: z
    .array(z.number({ message: 'must be a number' }).int().positive('must be an id'), { message: 'must be a list of ids' })
    .max(L.componentsPerPage)
    .optional(),
});
export type SubscriptionRequest = z.infer<typeof subscriptionRequestSchema>;

export interface IncidentUpdateView {
  id: number;
  status: IncidentStatus;
  /** the author's Markdown */
  message: string;
  /** the Markdown rendered to sanitised HTML (no script, no handlers, http(s) and mailto links only) */
  messageHtml: string;
  createdAt: string;
  /** who wrote it (an e-mail or a token's name); not on the public page */
  author?: string;
}

export interface IncidentView {
  id: number;
  pageId: number;
  title: string;
  impact: IncidentImpact;
  /** the last update's status */
  status: IncidentStatus;
  /** the states the incident sets by hand while open */
  components: { id: number; name: string; state: ComponentState }[];
  createdAt: string;
  resolvedAt: string | null;
  /** oldest first */
  updates: IncidentUpdateView[];
}

export interface SubscriberView {
  id: number;
  email: string;
  /** component ids; empty: every component */
  components: number[];
  confirmed: boolean;
  createdAt: string;
}

/** GET /api/status-components?breaker={id}: the components that include a breaker, to open an incident from its page. */
export interface ComponentOfBreaker {
  pageId: number;
  pageTitle: string;
  componentId: number;
  componentName: string;
}

/** One day of a component's bar: the share of the day it was up (null before it existed), and the day's incidents. */
export interface PublicDay {
  /** YYYY-MM-DD, UTC */
  date: string;
  uptime: number | null;
  /** the worst state it was in that day */
  worst: ComponentState;
  incidents: { id: number; title: string; impact: IncidentImpact }[];
}

export interface PublicComponent {
  id: number;
  name: string;
  description: string | null;
  group: string | null;
  state: ComponentState;
  /** the last 90 days, oldest first */
  days: PublicDay[];
  /** the share of the last 30 days up, null with no history */
  uptime30d: number | null;
}

export interface PublicMaintenance {
  name: string;
  startsAt: string;
  endsAt: string;
  active: boolean;
  /** the names of the page's components it covers */
  components: string[];
}

/** Only what the operator published: component names and texts, states, incidents; never breaker or domain names or figures. */
export interface PublicStatusSummary {
  page: { slug: string; title: string; description: string | null; accentColor: string | null; url: string };
  state: ComponentState;
  /** when this summary was computed */
  updatedAt: string;
  components: PublicComponent[];
  /** open incidents, newest first */
  incidents: PublicIncident[];
  /** windows active now or starting within 14 days */
  maintenance: PublicMaintenance[];
}

export type PublicIncident = Omit<IncidentView, 'pageId' | 'updates'> & { updates: Omit<IncidentUpdateView, 'author'>[] };

/** A page of a status page's resolved incidents (GET /status/{slug}?history=N, …/incidents.json?page=N). */
export interface PublicIncidentHistory {
  incidents: PublicIncident[];
  page: number;
  pages: number;
}
