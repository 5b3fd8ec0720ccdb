import { canOpen, ROUTES, type AuthUser, type RouteDefinition } from '@cbh/contracts';

/** The pages the top bar links to on its row, in this order; each shows only to those who may open it. */
const MAIN_ROUTES: readonly RouteDefinition[] = [ROUTES.home, ROUTES.dashboard, ROUTES.breakers, ROUTES.domains];

/** The lesser pages, under More on a desk: the bar stays one row from 900 px up whoever signs in. */
const MORE_ROUTES: readonly RouteDefinition[] = [
  ROUTES.onCall,
  ROUTES.slos,
  ROUTES.drills,
  ROUTES.loadTest,
  ROUTES.notifications,
  ROUTES.scrapeTargets,
  ROUTES.users,
  ROUTES.coreLogic,
];

/** The settings pages, each for the holders of its own permission (not user_management): under More, as Settings. */
const SETTINGS_ROUTES: readonly RouteDefinition[] = [ROUTES.organisationSettings, ROUTES.systemSettings, ROUTES.releases];

export interface NavLinks {
  main: RouteDefinition[];
  more: RouteDefinition[];
  settings: RouteDefinition[];
}

/** The pages this account may open from the top bar, or from the menu that stands in for it on a phone. */
export function navLinks(user: AuthUser | null): NavLinks {
  const allowed = (routes: readonly RouteDefinition[]) => routes.filter((route) => canOpen(user, route));
  return { main: allowed(MAIN_ROUTES), more: allowed(MORE_ROUTES), settings: allowed(SETTINGS_ROUTES) };
}

/** Whether the page shown is one of these routes or below one of them (a breaker's page is the wall's). */
export function showsOneOf(pathname: string, routes: readonly RouteDefinition[]): boolean {
  return routes.some((route) => pathname === route.path || pathname.startsWith(`${route.path}/`));
}
