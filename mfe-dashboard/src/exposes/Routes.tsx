import { ROUTES } from '@cbh/contracts';
import { lazyPage, RoutePages } from '@cbh/router';

/** The first page whose path matches is shown: /circuit-breakers/new comes before /circuit-breakers/:id. */
export const pages = [
  {
    path: ROUTES.dashboard.path,
    Component: lazyPage(
      () => import('../features/dashboard/DashboardPage'),
      (m) => m.DashboardPage,
    ),
  },
  {
    path: ROUTES.createBreaker.path,
    Component: lazyPage(
      () => import('../features/create-breaker/CreateBreakerPage'),
      (m) => m.CreateBreakerPage,
    ),
  },
  {
    path: ROUTES.breakers.path,
    Component: lazyPage(
      () => import('../features/breaker-wall/BreakerWallPage'),
      (m) => m.BreakerWallPage,
    ),
  },
  {
    path: ROUTES.breakerDetail.path,
    Component: lazyPage(
      () => import('../features/breaker-detail/BreakerDetailPage'),
      (m) => m.BreakerDetailPage,
    ),
  },
  {
    path: ROUTES.loadTest.path,
    Component: lazyPage(
      () => import('../features/load-test/LoadTestPage'),
      (m) => m.LoadTestPage,
    ),
  },
];

export default function DashboardRoutes() {
  return <RoutePages pages={pages} />;
}
