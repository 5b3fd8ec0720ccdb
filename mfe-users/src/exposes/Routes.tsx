import { RoutePages } from '@cbh/ui';
import { PrivilegeElevationPage } from '../features/elevation/PrivilegeElevationPage';
import { UserManagementPage } from '../features/users/UserManagementPage';

const pages = [
  { path: '/users', Component: UserManagementPage },
  { path: '/elevate', Component: PrivilegeElevationPage },
];

export default function UsersRoutes() {
  return <RoutePages pages={pages} />;
}
