import { ROUTES } from '@cbh/contracts';
import { RoutePages } from '@cbh/router';
import { CreateBreakerPage } from '../features/create-breaker/CreateBreakerPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { LoadTestPage } from '../features/load-test/LoadTestPage';

export const pages = [
  { path: ROUTES.dashboard.path, Component: DashboardPage },
  { path: ROUTES.createBreaker.path, Component: CreateBreakerPage },
  { path: ROUTES.loadTest.path, Component: LoadTestPage },
];

export default function DashboardRoutes() {
  return <RoutePages pages={pages} />;
}
