import { ROUTES } from '@cbh/contracts';
import { lazyPage, RoutePages } from '@cbh/router';

export const pages = [
  {
    path: ROUTES.users.path,
    Component: lazyPage(
      () => import('../features/users/UserManagementPage'),
      (m) => m.UserManagementPage,
    ),
  },
  {
    path: ROUTES.elevate.path,
    Component: lazyPage(
      () => import('../features/elevation/PrivilegeElevationPage'),
      (m) => m.PrivilegeElevationPage,
    ),
  },
];

export default function UsersRoutes() {
  return <RoutePages pages={pages} />;
}
