import { RoutePages } from '@cbh/ui';
import { CreateBreakerPage } from '../features/create-breaker/CreateBreakerPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { LoadTestPage } from '../features/load-test/LoadTestPage';

const pages = [
  { path: '/dashboard', Component: DashboardPage },
  { path: '/circuit-breakers/new', Component: CreateBreakerPage },
  { path: '/load-test', Component: LoadTestPage },
];

export default function DashboardRoutes() {
  return <RoutePages pages={pages} />;
}
