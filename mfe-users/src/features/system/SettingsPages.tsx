import { lazy, Suspense, type ReactNode } from 'react';
import { useGetAuthUserQuery } from '@cbh/api-client';
import { canOpen, ROUTES, type AuthUser, type RouteDefinition } from '@cbh/contracts';
import { AccessRestricted, Muted, PermittedPage } from '@cbh/ui';
import { OrganizationSettings } from '../users/OrganizationSettings';
import { Retention } from './SystemSettings';

// fetched on a visit to the releases page only: the other pages of this remote do without its tables and dialogs
const ReleasesCard = lazy(() => import('./ReleasesCard').then((module) => ({ default: module.ReleasesCard })));

/** One settings page: its route's title, shown to the accounts its route's permission lets in. */
function SettingsPage({ route, description, children }: { route: RouteDefinition; description: string; children: ReactNode }) {
  const { data: me, isLoading } = useGetAuthUserQuery();
  return (
    <PermittedPage
      title={route.title}
      description={description}
      user={me}
      loading={isLoading}
      allows={(user: AuthUser) => canOpen(user, route)}
      restricted={
        <AccessRestricted message={`You need the ${route.permission} permission to see the ${route.title.toLowerCase()} settings.`} />
      }
    >
      {() => children}
    </PermittedPage>
  );
}

/** /settings/organisation (organization_admin): the sign-in policy, as on the Organisation tab of /users. */
export function OrganisationSettingsPage() {
  return (
    <SettingsPage
      route={ROUTES.organisationSettings}
      description="The organisation's name, where invitations may go, how long access tokens and idle sessions last."
    >
      <OrganizationSettings />
    </SettingsPage>
  );
}

/** /settings/system (system_admin): how long history is kept, and the prune. */
export function SystemSettingsPage() {
  return (
    <SettingsPage route={ROUTES.systemSettings} description="How long each kind of history is kept, and the daily prune that applies it.">
      <Retention />
    </SettingsPage>
  );
}

/** /settings/releases (system_admin): the remotes' uploaded versions, promote, canary and rollback. */
export function ReleasesPage() {
  return (
    <SettingsPage route={ROUTES.releases} description="The builds of each remote: what is live, canaries, previews and rollback.">
      <Suspense fallback={<Muted role="status">Loading releases…</Muted>}>
        <ReleasesCard />
      </Suspense>
    </SettingsPage>
  );
}
