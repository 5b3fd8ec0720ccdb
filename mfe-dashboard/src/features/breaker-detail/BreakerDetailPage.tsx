import { apiErrorMessage, useGetAuthUserQuery, useGetBreakersQuery } from '@cbh/api-client';
import { hasPermission, ROUTES } from '@cbh/contracts';
import { Link, useParams } from '@cbh/router';
import { AccessRestricted, BackLink, Card, DetailPage, Muted, PageHeader, SectionTitle } from '@cbh/ui';
import { BreakerConsole } from './BreakerConsole';

const TITLE = ROUTES.breakerDetail.title;

// This page keeps its own copies of shared/record-id.ts and shared/not-found-card.tsx: shared, they would add about
// 100 bytes to the first load of a breaker's page, which is at its budget.

/** Only a plain positive whole number names a breaker: '07', '1e3' or '0x1f' are not read as some other breaker's id. */
function breakerIdFrom(param: string | undefined): number | null {
  if (!param || !/^[1-9]\d*$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) ? id : null;
}

function NotFound() {
  return (
    <Card aria-labelledby="breaker-not-found">
      <SectionTitle id="breaker-not-found">Circuit breaker not found</SectionTitle>
      <Muted>
        There is no circuit breaker at this address: it may have been deleted.{' '}
        <Link to={ROUTES.breakers.path}>See all circuit breakers</Link>.
      </Muted>
    </Card>
  );
}

/** /circuit-breakers/:id: one breaker's live figures, settings, manual controls, services, load tests and journal. */
export function BreakerDetailPage() {
  const { id: param } = useParams();
  const { data: user, isLoading } = useGetAuthUserQuery();
  const canView = hasPermission(user, 'circuit_breaker_view');
  const id = breakerIdFrom(param);
  // without the permission, or for an id no breaker can have, nothing is asked of the API
  const breakers = useGetBreakersQuery(undefined, { skip: !canView || id === null });
  const breaker = breakers.data?.find((entry) => entry.id === id);

  let content;
  if (isLoading) content = <Muted role="status">Loading…</Muted>;
  else if (!user || !canView) {
    content = (
      <>
        <PageHeader title={TITLE} />
        <AccessRestricted message="You need the circuit_breaker_view permission to see circuit breakers." />
      </>
    );
  } else if (id === null) content = <NotFound />;
  else if (breaker) content = <BreakerConsole breaker={breaker} user={user} />;
  else if (breakers.isError) {
    content = <Muted role="alert">The circuit breakers could not be loaded. {apiErrorMessage(breakers.error) ?? ''}</Muted>;
  } else if (breakers.isLoading) content = <Muted role="status">Loading the circuit breaker…</Muted>;
  else content = <NotFound />;

  return (
    <DetailPage>
      <BackLink to={ROUTES.breakers.path}>← All circuit breakers</BackLink>
      {content}
    </DetailPage>
  );
}
