import { ROUTES } from '@cbh/contracts';
import { lazyPages, RoutePages } from '@cbh/router';

/*
 * Each page is fetched on its first visit, under the shell's loading state: a page's tabs (the overlays entry of
 * @cbh/ui they draw on) do not weigh on the list. The first page is fetched as this module is evaluated.
 */
export const pages = lazyPages([
  {
    path: ROUTES.statusPages.path,
    load: () => import('../features/status-pages/StatusPagesPage').then((module) => module.StatusPagesPage),
  },
  {
    path: ROUTES.statusPage.path,
    load: () => import('../features/status-pages/StatusPageDetailPage').then((module) => module.StatusPageDetailPage),
  },
]);

export default function StatusRoutes() {
  return <RoutePages pages={pages} />;
}
