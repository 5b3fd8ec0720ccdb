import { RoutePages } from '@cbh/ui';
import { CreateBreakerPage } from '../features/create-breaker/CreateBreakerPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';

const pages = [
  { path: '/dashboard', Component: DashboardPage },
  { path: '/circuit-breakers/new', Component: CreateBreakerPage },
];

export default function DashboardRoutes() {
  return <RoutePages pages={pages} />;
}
