import { lazy } from 'react';
import { ROUTES } from '@cbh/contracts';
import { RoutePages } from '@cbh/router';
import { BreakerDetailPage } from '../features/breaker-detail/BreakerDetailPage';
import { LoadTestPage } from '../features/load-test/LoadTestPage';

/*
 * Fetched on their first visit, under the shell's loading state: their forms, tables and tiles would otherwise weigh on
 * every route of this remote, each of which loads this module (a breaker's page and the load test, which carry the
 * charts, are within a KB of their 50 KB). Those two stay in this module: they share the charts' code, so apart each
 * would weigh more, and a breaker's page, which an alert links to, paints without a second round trip.
 */
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
