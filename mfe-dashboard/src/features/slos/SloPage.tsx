import { apiErrorMessage, skipToken, SLO_POLL_MS, useGetAuthUserQuery, useGetSloQuery } from '@cbh/api-client';
import { hasPermission, ROUTES, type AuthUser, type SloDetailView } from '@cbh/contracts';
import { useParams } from '@cbh/router';
import { BackLink, DetailPage, Muted } from '@cbh/ui';
import { DetailStack } from '../shared/detail-parts';
import { NotFoundCard } from '../shared/not-found-card';
import { recordIdFrom } from '../shared/record-id';
import { BurnDownChart } from './BurnDownChart';
import { BurnRates } from './BurnRates';
import { ReportLinks } from './ReportLinks';
import { SloActions } from './SloActions';
import { SloSummary } from './SloSummary';
import { SlosOnly } from './slo-access';
import { TopContributors } from './TopContributors';
import { indicatorText, percentText, windowText } from './slo-text';

const NOT_FOUND = {
  title: 'SLO not found',
  text: 'There is no SLO at this address: it may have been deleted.',
  back: { to: ROUTES.slos.path, label: 'See all SLOs' },
};

function SloDetail({ slo, user }: { slo: SloDetailView; user: AuthUser }) {
  return (
    <DetailStack>
      <SloSummary slo={slo} />
      <BurnRates slo={slo} />
      <BurnDownChart slo={slo} />
      <TopContributors slo={slo} user={user} />
      <ReportLinks id={slo.id} />
    </DetailStack>
  );
}

/** What the header says under the name: the SLO's own description, else what it promises. */
const descriptionOf = (slo: SloDetailView) =>
  slo.description ?? `${indicatorText(slo.indicator.kind)}: ${percentText(slo.target)} good over ${windowText(slo.window)}.`;

/**
 * /slos/:id: one SLO's status, SLI against target and budget left, its burn rates, the budget's burn-down over the
 * window, who spent it, and its monthly reports; Edit and Delete for holders of circuit_breaker_admin.
 */
export function SloPage() {
  const id = recordIdFrom(useParams().id);
  const { data: user } = useGetAuthUserQuery();
  const allowed = hasPermission(user, 'circuit_breaker_view');
  const slo = useGetSloQuery(allowed && id !== null ? id : skipToken, { pollingInterval: SLO_POLL_MS, skipPollingIfUnfocused: true });
  // a domain's SLO, for someone without domain_management, is answered 404 too: to them it does not exist
  const missing = id === null || (slo.isError && (slo.error as { status?: unknown }).status === 404);
  const shown = missing ? undefined : slo.data;

  return (
    <DetailPage>
      <BackLink to={ROUTES.slos.path}>← All SLOs</BackLink>
      <SlosOnly
        title={shown?.name ?? ROUTES.slo.title}
        description={shown ? descriptionOf(shown) : ''}
        actions={
          shown && hasPermission(user, 'circuit_breaker_admin') ? (
            <SloActions slo={shown} domainAccess={hasPermission(user, 'domain_management')} />
          ) : null
        }
      >
        {(account) =>
          missing ? (
            <NotFoundCard {...NOT_FOUND} />
          ) : shown ? (
            <SloDetail slo={shown} user={account} />
          ) : slo.isError ? (
            <Muted role="alert">The SLO could not be loaded. {apiErrorMessage(slo.error) ?? ''}</Muted>
          ) : (
            <Muted role="status">Loading the SLO…</Muted>
          )
        }
      </SlosOnly>
    </DetailPage>
  );
}
