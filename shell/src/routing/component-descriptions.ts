import { SERVICE_COMPONENT_GROUPS, type ComponentStatus, type ServiceComponent } from '../chrome/service-components';

/** What each service component of the 'Service Logic' sidebar does, in one sentence, by slug. */
export const COMPONENT_DESCRIPTIONS: Record<string, string> = {
  core: 'The business rules of each service, kept apart from HTTP and storage, with every outbound call behind a breaker.',
  'error-handling': 'Turns failures into clear answers: fallbacks while a breaker is open, and errors that say what went wrong.',
  middleware: 'What runs around every request before the services see it: sessions, permission checks and request ids.',
  'background-tasks': 'Work done outside requests, on a schedule: domain checks, metric buckets, retention and clean-ups.',
  'data-access': 'Repositories that read and write the database, one per context, with typed results.',
  schema: 'The shared shapes of requests, answers and events, checked on both sides of every call.',
  cache: 'Keeps recent answers close, so repeated reads do not reach the database.',
  versioning: 'How the API changes without breaking those who call it.',
  auth: 'Who is signing in: passwords, organisation sign-in, sessions and access tokens.',
  validation: 'Checks every incoming request against its schema before any work is done.',
  'rate-limiter': 'Limits how often a client may call, so that one caller cannot crowd out the others.',
  events: 'Carries what happened (a breaker opening, a setting changed) to every part and browser that listens.',
  notifications: 'Tells people when breakers open and domains need attention: e-mail, webhooks, Slack and Discord.',
  telemetry: 'Each breaker’s calls, failures and response times, as live figures and stored history.',
  'audit-trail': 'Every change recorded with who made it, what it changed and when.',
};

const STATUS_TEXT: Record<ComponentStatus, string> = {
  active: 'Active',
  monitoring: 'Monitoring',
  inactive: 'Inactive',
};

export interface ComponentInfo extends ServiceComponent {
  category: string;
  description: string;
  statusText: string;
}

/** The service component a /services/<slug> path names, if the sidebar has it. */
export function componentAt(pathname: string): ComponentInfo | undefined {
  const slug = /^\/services\/([^/]+)\/?$/.exec(pathname)?.[1];
  for (const { category, components } of SERVICE_COMPONENT_GROUPS) {
    const component = components.find((candidate) => candidate.slug === slug);
    if (component)
      return {
        ...component,
        category,
        description: COMPONENT_DESCRIPTIONS[component.slug] ?? '',
        statusText: STATUS_TEXT[component.status],
      };
  }
  return undefined;
}
