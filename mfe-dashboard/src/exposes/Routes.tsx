import { lazy } from 'react';
import { ROUTES } from '@cbh/contracts';
import { RoutePages } from '@cbh/router';
import { BreakerDetailPage } from '../features/breaker-detail/BreakerDetailPage';
import { BreakerWallPage } from '../features/breaker-wall/BreakerWallPage';
import { CreateBreakerPage } from '../features/create-breaker/CreateBreakerPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { LoadTestPage } from '../features/load-test/LoadTestPage';

/*
 * Fetched on its first visit, under the shell's loading state: its forms and tables would otherwise weigh on every
 * route of this remote, each of which loads this module (a breaker's page is within a few hundred bytes of its 50 KB).
 */
const NotificationsPage = lazy(() =>
  import('../features/notifications/NotificationsPage').then((module) => ({ default: module.NotificationsPage })),
);

/** The first page whose path matches is shown: /circuit-breakers/new comes before /circuit-breakers/:id. */
export const pages = [
  { path: ROUTES.dashboard.path, Component: DashboardPage },
  { path: ROUTES.createBreaker.path, Component: CreateBreakerPage },
  { path: ROUTES.breakers.path, Component: BreakerWallPage },
  { path: ROUTES.breakerDetail.path, Component: BreakerDetailPage },
  { path: ROUTES.loadTest.path, Component: LoadTestPage },
  { path: ROUTES.notifications.path, Component: NotificationsPage },
];

export default function DashboardRoutes() {
  return <RoutePages pages={pages} />;
}
