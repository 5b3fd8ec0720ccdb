import { lazy } from 'react';
import { ROUTES } from '@cbh/contracts';
import { RoutePages } from '@cbh/router';
import { BreakerDetailPage } from '../features/breaker-detail/BreakerDetailPage';
import { CreateBreakerPage } from '../features/create-breaker/CreateBreakerPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { LoadTestPage } from '../features/load-test/LoadTestPage';

/*
 * Fetched on their first visit, under the shell's loading state: their forms, tables and tiles would otherwise weigh on
 * every route of this remote, each of which loads this module (a breaker's page and the load test are within a KB or
 * two of their 50 KB).
 */
const BreakerWallPage = lazy(() =>
  import('../features/breaker-wall/BreakerWallPage').then((module) => ({ default: module.BreakerWallPage })),
);
const NotificationsPage = lazy(() =>
  import('../features/notifications/NotificationsPage').then((module) => ({ default: module.NotificationsPage })),
);
const ScrapeTargetsPage = lazy(() =>
  import('../features/scrape-targets/ScrapeTargetsPage').then((module) => ({ default: module.ScrapeTargetsPage })),
);

/** The first page whose path matches is shown: /circuit-breakers/new comes before /circuit-breakers/:id. */
export const pages = [
  { path: ROUTES.dashboard.path, Component: DashboardPage },
  { path: ROUTES.createBreaker.path, Component: CreateBreakerPage },
  { path: ROUTES.breakers.path, Component: BreakerWallPage },
  { path: ROUTES.breakerDetail.path, Component: BreakerDetailPage },
  { path: ROUTES.loadTest.path, Component: LoadTestPage },
  { path: ROUTES.notifications.path, Component: NotificationsPage },
  { path: ROUTES.scrapeTargets.path, Component: ScrapeTargetsPage },
];

export default function DashboardRoutes() {
  return <RoutePages pages={pages} />;
}
