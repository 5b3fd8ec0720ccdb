import { PATTERN_DEMOS } from './patterns';
import { hasPermission, type Permission, type Role } from './roles';

/** The federation container names of the remotes, in the order of /remotes.json. */
export const REMOTE_NAMES = ['mfe_learning', 'mfe_dashboard', 'mfe_domains', 'mfe_users', 'mfe_patterns', 'mfe_status'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** One page of the site: the remote that renders it, its title and who may open it. */
export interface RouteDefinition {
  /** The exact path the route matches. */
  readonly path: string;
  /** The remote listed for this path in /remotes.json. */
  readonly remote: RemoteName;
  /** The page's name wherever the site links to it. */
  readonly title: string;
  /** The permission an account needs for the page; absent when any visitor may open it. */
  readonly permission?: Permission;
  /** The one role that may open the page; absent when the page is not limited to a role. */
  readonly role?: Role;
}

/** The path of a service component's page in the 'Service Logic' sidebar. */
export function servicePath(slug: string): string {
  return `/services/${slug}`;
}

/** The path of one breaker's page in the operators' console. */
export function breakerPath(id: number): string {
  return `/circuit-breakers/${id}`;
}

/** The path of a pattern demonstration's page. */
export function patternPath(slug: string): string {
  return `/patterns/${slug}`;
}

/** The path of one status page's settings (components, incidents, subscribers) in the console. */
export function statusPagePath(id: number): string {
  return `/status-pages/${id}`;
}

/** The public address of a status page: what the people who depend on the service open (served by the API, not a remote). */
export function publicStatusPath(slug: string): string {
  return `/status/${slug}`;
}

/** The path of one alert group's page (its timeline and actions) in the console. */
export function alertGroupPath(id: number): string {
  return `/on-call/groups/${id}`;
}

/** The path of one SLO's page (its budget burn-down, burn rates and top contributors). */
export function sloPath(id: number): string {
  return `/slos/${id}`;
}

/** The path of one drill's page (its live view and report). */
export function drillPath(id: number): string {
  return `/drills/${id}`;
}

/** The named pages of the site; link to one through its path here, never a typed-out string. */
export const ROUTES = {
  home: { path: '/', remote: 'mfe_learning', title: 'Home' },
  coreLogic: { path: '/core-logic', remote: 'mfe_learning', title: 'Core Logic', role: 'super_admin' },
  serviceLayer: { path: servicePath('core'), remote: 'mfe_learning', title: 'Service Layer' },
  dataAccessLayer: { path: servicePath('data-access'), remote: 'mfe_learning', title: 'Data Access Layer' },
  dashboard: { path: '/dashboard', remote: 'mfe_dashboard', title: 'Dashboard' },
  createBreaker: { path: '/circuit-breakers/new', remote: 'mfe_dashboard', title: 'Create Circuit Breaker' },
  breakers: { path: '/circuit-breakers', remote: 'mfe_dashboard', title: 'Circuit Breakers', permission: 'circuit_breaker_view' },
  /** After createBreaker: a static segment wins over the parameter. */
  breakerDetail: { path: '/circuit-breakers/:id', remote: 'mfe_dashboard', title: 'Circuit Breaker', permission: 'circuit_breaker_view' },
  loadTest: { path: '/load-test', remote: 'mfe_dashboard', title: 'Load Test' },
  /** Channels, rules, maintenance windows and the delivery log of the notifications breakers and domain alerts raise. */
  notifications: { path: '/notifications', remote: 'mfe_dashboard', title: 'Notifications', permission: 'circuit_breaker_admin' },
  /** The Prometheus endpoints whose resilience4j breakers the hub scrapes onto the wall. */
  scrapeTargets: { path: '/scrape-targets', remote: 'mfe_dashboard', title: 'Scrape Targets', permission: 'circuit_breaker_admin' },
  domains: { path: '/domains', remote: 'mfe_domains', title: 'Domains', permission: 'domain_management' },
  users: { path: '/users', remote: 'mfe_users', title: 'User Management', permission: 'user_management' },
  elevate: { path: '/elevate', remote: 'mfe_users', title: 'Elevate to Super Admin' },
  /** The signed-in person's own profile, access tokens and sessions; signed-out visitors are asked to sign in. */
  account: { path: '/account', remote: 'mfe_users', title: 'Account' },
  /** The sign-in policy: invitation domains, token lifetimes, idle sessions. Also a tab of /users. */
  organisationSettings: { path: '/settings/organisation', remote: 'mfe_users', title: 'Organisation', permission: 'organization_admin' },
  /** How long each kind of history is kept, and the daily prune. Also, with the releases, a tab of /users. */
  systemSettings: { path: '/settings/system', remote: 'mfe_users', title: 'System', permission: 'system_admin' },
  /** The remotes' versions: upload, canary, promote, roll back. */
  releases: { path: '/settings/releases', remote: 'mfe_users', title: 'Releases', permission: 'system_admin' },
  /** The status pages people who depend on a service read, driven by the breakers and domain checks; their incidents. */
  statusPages: { path: '/status-pages', remote: 'mfe_status', title: 'Status Pages', permission: 'circuit_breaker_admin' },
  statusPage: { path: '/status-pages/:id', remote: 'mfe_status', title: 'Status Page', permission: 'circuit_breaker_admin' },
  /** Alert groups firing and acknowledged, live; escalation policies; schedules and who is on call. */
  onCall: { path: '/on-call', remote: 'mfe_dashboard', title: 'On Call', permission: 'circuit_breaker_view' },
  alertGroup: { path: '/on-call/groups/:id', remote: 'mfe_dashboard', title: 'Alert Group', permission: 'circuit_breaker_view' },
  /** Service level objectives: SLI, error budget and burn rates of each, sortable, by service. */
  slos: { path: '/slos', remote: 'mfe_dashboard', title: 'SLOs', permission: 'circuit_breaker_view' },
  slo: { path: '/slos/:id', remote: 'mfe_dashboard', title: 'SLO', permission: 'circuit_breaker_view' },
  /** Resilience drills: faults injected into chosen breakers' calls for a bounded time, and whether they reacted. */
  drills: { path: '/drills', remote: 'mfe_dashboard', title: 'Drills', permission: 'circuit_breaker_admin' },
  drill: { path: '/drills/:id', remote: 'mfe_dashboard', title: 'Drill', permission: 'circuit_breaker_admin' },
} as const satisfies Record<string, RouteDefinition>;

/** One page per pattern demonstration, rendered by mfe_patterns. */
export const PATTERN_ROUTES: readonly RouteDefinition[] = PATTERN_DEMOS.map(({ slug, title }) => ({
  path: patternPath(slug),
  remote: 'mfe_patterns',
  title,
}));

/** Every page of the site; /remotes.json lists exactly these paths, each under its remote, in this order. */
export const ROUTE_TABLE: readonly RouteDefinition[] = [...Object.values(ROUTES), ...PATTERN_ROUTES];

/** The pages a remote renders, in table order. */
export function routesOf(remote: RemoteName): readonly RouteDefinition[] {
  return ROUTE_TABLE.filter((route) => route.remote === remote);
}

/** Whether an account may open a page: it holds the page's permission and has the page's role, if any. */
export function canOpen(user: { role: string; permissions: readonly string[] } | null | undefined, route: RouteDefinition): boolean {
  if (route.role !== undefined && user?.role !== route.role) return false;
  if (route.permission !== undefined && !hasPermission(user, route.permission)) return false;
  return true;
}
