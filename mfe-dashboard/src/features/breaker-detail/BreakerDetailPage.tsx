import { apiErrorMessage, useGetAuthUserQuery, useGetBreakersQuery } from '@cbh/api-client';
import { hasPermission, ROUTES } from '@cbh/contracts';
import { useParams } from '@cbh/router';
import { AccessRestricted, BackLink, DetailPage, Muted, PageHeader } from '@cbh/ui';
import { NotFoundCard } from '../shared/detail-parts';
import { recordIdFrom } from '../shared/record-id';
import { BreakerConsole } from './BreakerConsole';

const TITLE = ROUTES.breakerDetail.title;

const NOT_FOUND = {
  title: 'Circuit breaker not found',
  text: 'There is no circuit breaker at this address: it may have been deleted.',
  back: { to: ROUTES.breakers.path, label: 'See all circuit breakers' },
};

/** /circuit-breakers/:id: one breaker's live figures, settings, manual controls, services, load tests and journal. */
export function BreakerDetailPage() {
  const { id: param } = useParams();
  const { data: user, isLoading } = useGetAuthUserQuery();
  const canView = hasPermission(user, 'circuit_breaker_view');
  const id = recordIdFrom(param);
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
  } else if (id === null) content = <NotFoundCard {...NOT_FOUND} />;
  else if (breaker) content = <BreakerConsole breaker={breaker} user={user} />;
  else if (breakers.isError) {
    content = <Muted role="alert">The circuit breakers could not be loaded. {apiErrorMessage(breakers.error) ?? ''}</Muted>;
  } else if (breakers.isLoading) content = <Muted role="status">Loading the circuit breaker…</Muted>;
  else content = <NotFoundCard {...NOT_FOUND} />;

  return (
    <DetailPage>
      <BackLink to={ROUTES.breakers.path}>← All circuit breakers</BackLink>
      {content}
    </DetailPage>
  );
}
