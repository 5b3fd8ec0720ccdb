import { matchPath } from '@cbh/router';
import { ROUTE_TABLE, ROUTES, type AuthUser, type RouteDefinition } from '@cbh/contracts';

/** The remotes whose every page is about the signed-in account's data: the console, domains and accounts. */
const SIGNED_IN_REMOTES: ReadonlySet<RouteDefinition['remote']> = new Set(['mfe_dashboard', 'mfe_domains', 'mfe_users']);

/** Whether a page is for signed-in people only (it names a permission or a role, or it shows an account's data). */
export const needsAccount = (route: RouteDefinition) =>
  route.permission !== undefined || route.role !== undefined || SIGNED_IN_REMOTES.has(route.remote);

/** The page at `pathname`, when it is one only a signed-in person can use. */
export function accountPageAt(pathname: string): RouteDefinition | undefined {
  // the table lists /circuit-breakers/new before /circuit-breakers/:id, so the first match is the right one
  const route = ROUTE_TABLE.find((candidate) => matchPath(candidate.path, pathname));
  return route && needsAccount(route) ? route : undefined;
}

/** The page a visitor who is signed out is asked to sign in for at `pathname`; none when signed in, or for a public page. */
export const signInPageFor = (session: AuthUser | null | undefined, pathname: string) =>
  session === null ? accountPageAt(pathname) : undefined;

/** The heading a page shows, where it is not the name its links give it. */
const HEADINGS: Readonly<Record<string, string>> = {
  [ROUTES.domains.path]: 'Domain Management',
  [ROUTES.elevate.path]: 'Privilege Elevation',
  [ROUTES.loadTest.path]: 'Run Load Test',
};

export const headingOf = (route: RouteDefinition) => HEADINGS[route.path] ?? route.title;

/** The page the spec sends straight to the sign-in page instead of asking (Core Logic redirects). */
export const redirectsToSignIn = (route: RouteDefinition) => route.path === ROUTES.coreLogic.path;
