import { ROUTES } from '@cbh/contracts';
import { RoutePages } from '@cbh/router';
import { BreakerDetailPage } from '../features/breaker-detail/BreakerDetailPage';
import { BreakerWallPage } from '../features/breaker-wall/BreakerWallPage';
import { CreateBreakerPage } from '../features/create-breaker/CreateBreakerPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { LoadTestPage } from '../features/load-test/LoadTestPage';

/** The first page whose path matches is shown: /circuit-breakers/new comes before /circuit-breakers/:id. */
export const pages = [
  { path: ROUTES.dashboard.path, Component: DashboardPage },
  { path: ROUTES.createBreaker.path, Component: CreateBreakerPage },
  { path: ROUTES.breakers.path, Component: BreakerWallPage },
  { path: ROUTES.breakerDetail.path, Component: BreakerDetailPage },
  { path: ROUTES.loadTest.path, Component: LoadTestPage },
];

export default function DashboardRoutes() {
  return <RoutePages pages={pages} />;
}
