import { ROUTES } from '@cbh/contracts';
import { lazyPages, RoutePages } from '@cbh/router';

/*
 * Each page is fetched on its first visit, under the shell's loading state: apart, no route carries another's forms,
 * tables, tiles or charts (a breaker's page and the load test share the charts' chunk), and this module, which every
 * route of the remote loads first, stays a list of paths. The first page is fetched as this module is evaluated.
 */
export const pages = lazyPages([
  { path: ROUTES.dashboard.path, load: () => import('../features/dashboard/DashboardPage').then((module) => module.DashboardPage) },
  {
    path: ROUTES.createBreaker.path,
    load: () => import('../features/create-breaker/CreateBreakerPage').then((module) => module.CreateBreakerPage),
  },
  { path: ROUTES.breakers.path, load: () => import('../features/breaker-wall/BreakerWallPage').then((module) => module.BreakerWallPage) },
  {
    path: ROUTES.breakerDetail.path,
    load: () => import('../features/breaker-detail/BreakerDetailPage').then((module) => module.BreakerDetailPage),
  },
  { path: ROUTES.loadTest.path, load: () => import('../features/load-test/LoadTestPage').then((module) => module.LoadTestPage) },
  {
    path: ROUTES.notifications.path,
    load: () => import('../features/notifications/NotificationsPage').then((module) => module.NotificationsPage),
  },
  {
    path: ROUTES.scrapeTargets.path,
    load: () => import('../features/scrape-targets/ScrapeTargetsPage').then((module) => module.ScrapeTargetsPage),
  },
  { path: ROUTES.onCall.path, load: () => import('../features/on-call/OnCallPage').then((module) => module.OnCallPage) },
  { path: ROUTES.alertGroup.path, load: () => import('../features/on-call/groups/AlertGroupPage').then((module) => module.AlertGroupPage) },
  { path: ROUTES.slos.path, load: () => import('../features/slos/SlosPage').then((module) => module.SlosPage) },
  { path: ROUTES.slo.path, load: () => import('../features/slos/SloPage').then((module) => module.SloPage) },
  { path: ROUTES.drills.path, load: () => import('../features/drills/DrillsPage').then((module) => module.DrillsPage) },
  { path: ROUTES.drill.path, load: () => import('../features/drills/DrillPage').then((module) => module.DrillPage) },
]);

export default function DashboardRoutes() {
  return <RoutePages pages={pages} />;
}
