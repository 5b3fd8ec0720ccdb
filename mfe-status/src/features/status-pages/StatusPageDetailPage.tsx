import styled from 'styled-components';
import { skipToken, useGetAuthUserQuery, useGetStatusPageQuery } from '@cbh/api-client';
import { hasPermission, publicStatusPath, ROUTES, type AuthUser, type StatusPageView } from '@cbh/contracts';
import { Link, useParams, useSearchParams } from '@cbh/router';
import { BackLink, ButtonLink, Card, DetailPage, Muted, SectionTitle, theme, VisuallyHidden } from '@cbh/ui';
import { Tabs } from '@cbh/ui/overlays';
import { AdminOnly } from './access';
import { AppearanceTab } from './AppearanceTab';
import { ComponentsTab } from './ComponentsTab';
import { IncidentsTab } from './IncidentsTab';
import { ComponentStateBadge } from './StateBadge';
import { idFrom, idsFrom } from './status-text';
import { SubscribersTab } from './SubscribersTab';

/**
 * The API judges components about once a second, after a breaker moves or a domain is checked; no live message says a
 * component changed, so the open page is read again this often (a breaker's stateChange also refreshes it, which may
 * come before the judge's next round).
 */
export const REFRESH_MS = 5000;

const Facts = styled.p`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 16px;
  margin: 0 0 20px;
  font-size: 14px;
  color: ${theme.colors.muted};
  code {
    overflow-wrap: anywhere;
  }
`;

function NotFound() {
  return (
    <Card aria-labelledby="status-page-not-found">
      <SectionTitle id="status-page-not-found">Status page not found</SectionTitle>
      <Muted>
        There is no status page at this address: it may have been deleted. <Link to={ROUTES.statusPages.path}>See all status pages</Link>.
      </Muted>
    </Card>
  );
}

/** The page's tabs; `?incident=new&components=1,2` opens the incident form with those components. */
function StatusPageTabs({ page, user }: { page: StatusPageView; user: AuthUser }) {
  const [search] = useSearchParams();
  const prefill = search.get('incident') === 'new' ? idsFrom(search.get('components')) : null;
  const domainAccess = hasPermission(user, 'domain_management');
  return (
    <>
      <Facts>
        <ComponentStateBadge state={page.state} />
        <span>{page.public ? 'Public' : 'Private: only signed-in people may preview it'}</span>
        <code>{publicStatusPath(page.slug)}</code>
      </Facts>
      <Tabs
        label="Status page settings"
        defaultValue={prefill ? 'incidents' : 'components'}
        tabs={[
          { value: 'components', label: 'Components', content: <ComponentsTab page={page} domainAccess={domainAccess} /> },
          { value: 'incidents', label: 'Incidents', content: <IncidentsTab page={page} prefill={prefill} /> },
          { value: 'subscribers', label: 'Subscribers', content: <SubscribersTab page={page} /> },
          { value: 'appearance', label: 'Appearance', content: <AppearanceTab page={page} /> },
        ]}
      />
    </>
  );
}

/** /status-pages/:id: one status page's components, incidents, subscribers and appearance. */
export function StatusPageDetailPage() {
  const id = idFrom(useParams().id);
  const { data: user } = useGetAuthUserQuery();
  const allowed = hasPermission(user, 'circuit_breaker_admin');
  const page = useGetStatusPageQuery(allowed && id !== null ? id : skipToken, {
    pollingInterval: REFRESH_MS,
    skipPollingIfUnfocused: true,
  });
  const missing = id === null || (page.isError && (page.error as { status?: unknown }).status === 404);

  const preview = page.data ? (
    <ButtonLink $variant="outline" href={publicStatusPath(page.data.slug)} target="_blank" rel="noopener">
      Preview
      <VisuallyHidden> {page.data.title} (opens in a new tab)</VisuallyHidden>
    </ButtonLink>
  ) : null;

  return (
    <DetailPage>
      <BackLink to={ROUTES.statusPages.path}>← All status pages</BackLink>
      <AdminOnly
        title={missing ? ROUTES.statusPage.title : (page.data?.title ?? ROUTES.statusPage.title)}
        description={missing ? '' : (page.data?.description ?? 'What the people who depend on these services see.')}
        actions={preview}
      >
        {(account) =>
          missing ? (
            <NotFound />
          ) : page.data ? (
            <StatusPageTabs page={page.data} user={account} />
          ) : page.isError ? (
            <Muted role="alert">The status page could not be loaded.</Muted>
          ) : (
            <Muted role="status">Loading the status page…</Muted>
          )
        }
      </AdminOnly>
    </DetailPage>
  );
}
