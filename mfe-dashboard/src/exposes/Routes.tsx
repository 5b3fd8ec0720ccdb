import { RoutePages } from '@cbh/ui';
import { DashboardPage } from '../features/dashboard/DashboardPage';

const pages = [{ path: '/dashboard', Component: DashboardPage }];

export default function DashboardRoutes() {
  return <RoutePages pages={pages} />;
}
