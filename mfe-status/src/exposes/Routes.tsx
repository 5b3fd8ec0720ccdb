import { lazy } from 'react';
import { ROUTES } from '@cbh/contracts';
import { RoutePages } from '@cbh/router';

/*
 * Each page is fetched on its first visit, under the shell's loading state: a page's tabs (the overlays entry of
 * @cbh/ui they draw on) do not weigh on the list.
 */
const StatusPagesPage = lazy(() =>
  import('../features/status-pages/StatusPagesPage').then((module) => ({ default: module.StatusPagesPage })),
);
const StatusPageDetailPage = lazy(() =>
  import('../features/status-pages/StatusPageDetailPage').then((module) => ({ default: module.StatusPageDetailPage })),
);

export const pages = [
  { path: ROUTES.statusPages.path, Component: StatusPagesPage },
  { path: ROUTES.statusPage.path, Component: StatusPageDetailPage },
];

export default function StatusRoutes() {
  return <RoutePages pages={pages} />;
}
