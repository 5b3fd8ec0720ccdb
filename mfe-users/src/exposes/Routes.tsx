import { ROUTES } from '@cbh/contracts';
import { RoutePages } from '@cbh/router';
import { AccountPage } from '../features/account/AccountPage';
import { PrivilegeElevationPage } from '../features/elevation/PrivilegeElevationPage';
import { OrganisationSettingsPage, ReleasesPage, SystemSettingsPage } from '../features/system/SettingsPages';
import { UserManagementPage } from '../features/users/UserManagementPage';

export const pages = [
  { path: ROUTES.users.path, Component: UserManagementPage },
  { path: ROUTES.elevate.path, Component: PrivilegeElevationPage },
  { path: ROUTES.account.path, Component: AccountPage },
  { path: ROUTES.organisationSettings.path, Component: OrganisationSettingsPage },
  { path: ROUTES.systemSettings.path, Component: SystemSettingsPage },
  { path: ROUTES.releases.path, Component: ReleasesPage },
];

export default function UsersRoutes() {
  return <RoutePages pages={pages} />;
}
