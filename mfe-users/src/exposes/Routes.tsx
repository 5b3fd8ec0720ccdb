import { ROUTES } from '@cbh/contracts';
import { lazyPages, RoutePages } from '@cbh/router';

/*
 * Each page is fetched on its first visit, under the shell's loading state: no route carries another's tables,
 * forms and dialogs, and this module, which every route of the remote loads first, stays a list of paths. The first
 * page is fetched as this module is evaluated.
 */
const settingsPages = () => import('../features/system/SettingsPages');

export const pages = lazyPages([
  { path: ROUTES.users.path, load: () => import('../features/users/UserManagementPage').then((module) => module.UserManagementPage) },
  {
    path: ROUTES.elevate.path,
    load: () => import('../features/elevation/PrivilegeElevationPage').then((module) => module.PrivilegeElevationPage),
  },
  { path: ROUTES.account.path, load: () => import('../features/account/AccountPage').then((module) => module.AccountPage) },
  { path: ROUTES.organisationSettings.path, load: () => settingsPages().then((module) => module.OrganisationSettingsPage) },
  { path: ROUTES.systemSettings.path, load: () => settingsPages().then((module) => module.SystemSettingsPage) },
  { path: ROUTES.releases.path, load: () => settingsPages().then((module) => module.ReleasesPage) },
]);

export default function UsersRoutes() {
  return <RoutePages pages={pages} />;
}
