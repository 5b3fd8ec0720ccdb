import { lazy } from 'react';
import { ROUTES } from '@cbh/contracts';
import { RoutePages } from '@cbh/router';

/*
 * Each page is fetched on its first visit, under the shell's loading state: apart, no route carries another's forms,
 * tables, tiles or charts (a breaker's page and the load test share the charts' chunk), and this module, which every
 * route of the remote loads first, stays a list of paths.
 */
const BreakerDetailPage = lazy(() =>
  import('../features/breaker-detail/BreakerDetailPage').then((module) => ({ default: module.BreakerDetailPage })),
);
const LoadTestPage = lazy(() => import('../features/load-test/LoadTestPage').then((module) => ({ default: module.LoadTestPage })));
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage').then((module) => ({ default: module.DashboardPage })));
const CreateBreakerPage = lazy(() =>
  import('../features/create-breaker/CreateBreakerPage').then((module) => ({ default: module.CreateBreakerPage })),
);
const BreakerWallPage = lazy(() =>
  import('../features/breaker-wall/BreakerWallPage').then((module) => ({ default: module.BreakerWallPage })),
);
const NotificationsPage = lazy(() =>
  import('../features/notifications/NotificationsPage').then((module) => ({ default: module.NotificationsPage })),
);
const ScrapeTargetsPage = lazy(() =>
  import('../features/scrape-targets/ScrapeTargetsPage').then((module) => ({ default: module.ScrapeTargetsPage })),
);
const OnCallPage = lazy(() => import('../features/on-call/OnCallPage').then((module) => ({ default: module.OnCallPage })));
const AlertGroupPage = lazy(() =>
  import('../features/on-call/groups/AlertGroupPage').then((module) => ({ default: module.AlertGroupPage })),
);
const SlosPage = lazy(() => import('../features/slos/SlosPage').then((module) => ({ default: module.SlosPage })));
const SloPage = lazy(() => import('../features/slos/SloPage').then((module) => ({ default: module.SloPage })));
const DrillsPage = lazy(() => import('../features/drills/DrillsPage').then((module) => ({ default: module.DrillsPage })));
const DrillPage = lazy(() => import('../features/drills/DrillPage').then((module) => ({ default: module.DrillPage })));

/** The first page whose path matches is shown: /circuit-breakers/new comes before /circuit-breakers/:id. */
export const pages = [
  { path: ROUTES.dashboard.path, Component: DashboardPage },
  { path: ROUTES.createBreaker.path, Component: CreateBreakerPage },
  { path: ROUTES.breakers.path, Component: BreakerWallPage },
  { path: ROUTES.breakerDetail.path, Component: BreakerDetailPage },
  { path: ROUTES.loadTest.path, Component: LoadTestPage },
  { path: ROUTES.notifications.path, Component: NotificationsPage },
  { path: ROUTES.scrapeTargets.path, Component: ScrapeTargetsPage },
  { path: ROUTES.onCall.path, Component: OnCallPage },
  { path: ROUTES.alertGroup.path, Component: AlertGroupPage },
  { path: ROUTES.slos.path, Component: SlosPage },
  { path: ROUTES.slo.path, Component: SloPage },
  { path: ROUTES.drills.path, Component: DrillsPage },
  { path: ROUTES.drill.path, Component: DrillPage },
];

export default function DashboardRoutes() {
  return <RoutePages pages={pages} />;
}
