import { lazy } from 'react';
import { ROUTES } from '@cbh/contracts';
import { RoutePages } from '@cbh/router';

/*
 * Each page is fetched on its first visit, under the shell's loading state: no route carries another's tables,
 * forms and dialogs, and this module, which every route of the remote loads first, stays a list of paths.
 */
const UserManagementPage = lazy(() =>
  import('../features/users/UserManagementPage').then((module) => ({ default: module.UserManagementPage })),
);
const PrivilegeElevationPage = lazy(() =>
  import('../features/elevation/PrivilegeElevationPage').then((module) => ({ default: module.PrivilegeElevationPage })),
);
const AccountPage = lazy(() => import('../features/account/AccountPage').then((module) => ({ default: module.AccountPage })));
const settingsPages = () => import('../features/system/SettingsPages');
const OrganisationSettingsPage = lazy(() => settingsPages().then((module) => ({ default: module.OrganisationSettingsPage })));
const SystemSettingsPage = lazy(() => settingsPages().then((module) => ({ default: module.SystemSettingsPage })));
const ReleasesPage = lazy(() => settingsPages().then((module) => ({ default: module.ReleasesPage })));

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
