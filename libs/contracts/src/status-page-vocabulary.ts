/*
 * Status pages: what the people who depend on a service see. A page's components are each driven by the hub's live
 * breakers and domain checks; this file holds their states and the rule that derives a component's state, zod-free,
 * so the API, the public page and the screens judge a component alike.
 */

/** A component's states, from the best to the worst. The names are the public contract (JSON, badges, feeds). */
export const COMPONENT_STATES = ['operational', 'maintenance', 'degraded', 'partial_outage', 'major_outage'] as const;
export type ComponentState = (typeof COMPONENT_STATES)[number];

/** Each state as people read it on a page, a badge or a mail. */
export const COMPONENT_STATE_LABELS: Record<ComponentState, string> = {
  operational: 'Operational',
  maintenance: 'Under maintenance',
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
};

/** The limits of a page, checked by the API on every write. */
export const STATUS_PAGE_LIMITS = {
  pagesPerHub: 50,
  componentsPerPage: 50,
  membersPerComponent: 100,
  slugLength: 60,
  titleLength: 120,
  descriptionLength: 1000,
  nameLength: 120,
  groupLength: 80,
  incidentTitleLength: 200,
  messageLength: 10_000,
  componentsPerIncident: 50,
  /** incidents listed per page of GET …/incidents and of the public page's history */
  incidentsPerPage: 10,
  updatesPerIncident: 100,
  subscribersPerPage: 10_000,
  /** days of daily bars a component shows */
  days: 90,
} as const;

/** How bad an incident is, as its author says (`none` for a notice). */
export const INCIDENT_IMPACTS = ['none', 'minor', 'major', 'critical'] as const;
export type IncidentImpact = (typeof INCIDENT_IMPACTS)[number];

/** An incident's stages, each update naming one; `resolved` closes it and gives its components back to their breakers. */
export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export const INCIDENT_STATUS_LABELS: Record<IncidentStatus, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

/** The events a status page raises for notification rules (subject kind `status_page`). */
export const INCIDENT_EVENTS = ['incident.created', 'incident.updated', 'incident.resolved'] as const;
export type IncidentEventType = (typeof INCIDENT_EVENTS)[number];

/** Whether a state counts as down in a day's uptime: a partial or a major outage (maintenance and degraded are up). */
export const isDownState = (state: ComponentState) => state === 'partial_outage' || state === 'major_outage';

/** A page's address segment: lower-case letters, digits and single hyphens (`payments`, `eu-checkout`). */
export const STATUS_PAGE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** What the hub knows now of one breaker a component includes (its state over every replica and instance). */
export interface MemberBreaker {
  state: 'CLOSED' | 'OPEN' | 'HALF_OPEN';
}

/** What the hub knows now of one domain a component includes. */
export interface MemberDomain {
  /** the last uptime check failed, or the domain is marked down */
  down: boolean;
  /** a slow-response alert is firing: its response time is over its threshold */
  slow: boolean;
}

export interface ComponentInputs {
  breakers: readonly MemberBreaker[];
  domains: readonly MemberDomain[];
  /** a maintenance window covering one of its breakers or domains is active now */
  inMaintenance: boolean;
  /** the state an open incident set by hand, which wins until the incident is resolved */
  incidentState?: ComponentState | null;
}

/**
 * A component's state now: an open incident's state by hand first; then maintenance; then from its members — a major
 * outage when every member fails (each breaker open, each domain down), a partial outage when some do, degraded when a
 * breaker is half-open or a domain is slow, operational otherwise (and with no members).
 */
export function componentState(inputs: ComponentInputs): ComponentState {
  if (inputs.incidentState) return inputs.incidentState;
  if (inputs.inMaintenance) return 'maintenance';
  const failing = [...inputs.breakers.map((breaker) => breaker.state === 'OPEN'), ...inputs.domains.map((domain) => domain.down)];
  const failed = failing.filter(Boolean).length;
  if (failed > 0) return failed === failing.length ? 'major_outage' : 'partial_outage';
  const degraded = inputs.breakers.some((breaker) => breaker.state === 'HALF_OPEN') || inputs.domains.some((domain) => domain.slow);
  return degraded ? 'degraded' : 'operational';
}

/** The worst of some states (a page's overall state is its worst component's); operational for none. */
export function worstState(states: readonly ComponentState[]): ComponentState {
  return states.reduce<ComponentState>(
    (worst, state) => (COMPONENT_STATES.indexOf(state) > COMPONENT_STATES.indexOf(worst) ? state : worst),
    'operational',
  );
}
