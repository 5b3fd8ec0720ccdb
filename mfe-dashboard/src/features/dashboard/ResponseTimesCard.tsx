import styled from 'styled-components';
import { apiErrorMessage, useGetResponseTimesQuery } from '@cbh/api-client';
import { canOpen, ROUTES, type AuthUser, type ResponseTimesView } from '@cbh/contracts';
import { Card, Muted, ResponsiveTable, type TableColumn } from '@cbh/ui';
import { durationText } from '../shared/duration-text';
import { MoreLink, SectionTitle } from './dashboard-parts';

/** The span the card sums up, in days. */
export const RESPONSE_DAYS = 30;

/** What the API's null service gathers: the hub's own breakers, and the groups of domains, releases and SLOs. */
export const NO_SERVICE = 'Hub and other subjects';

type ServiceTimes = ResponseTimesView['services'][number];

// the whole width under the overview cards: four columns need more room than a card of their grid
const Frame = styled(Card)`
  margin-bottom: 24px;
  min-width: 0;
`;

const Note = styled(Muted)`
  margin-bottom: 12px;
  font-size: 14px;
`;

/**
 * On a phone each header labels a value in a column of about 95 px, too narrow for "acknowledge": a soft hyphen lets it
 * break as a word breaks (readers and screen readers ignore it elsewhere).
 */
const ACKNOWLEDGE_HEADER = 'Mean time to acknowl\u00ADedge';

const COLUMNS: readonly TableColumn<ServiceTimes>[] = [
  { header: 'Service', cell: (row) => row.service ?? NO_SERVICE },
  { header: 'Groups', cell: (row) => row.groups, nowrap: true },
  { header: ACKNOWLEDGE_HEADER, cell: (row) => durationText(row.mttaSeconds), nowrap: true },
  { header: 'Mean time to resolve', cell: (row) => durationText(row.mttrSeconds), nowrap: true },
];

/**
 * How fast alert groups were answered in the last 30 days, per service: how many opened, and the mean time until
 * someone acknowledged and until they were resolved ("—" where none was). The API reads only the groups the account
 * may see; a live alertGroupChanged reads it again.
 */
export function ResponseTimesCard({ user }: { user: AuthUser }) {
  const times = useGetResponseTimesQuery({ days: RESPONSE_DAYS });
  return (
    <Frame aria-labelledby="response-times-title">
      <SectionTitle id="response-times-title">Response times ({RESPONSE_DAYS} days)</SectionTitle>
      <Note>The mean time from an alert group opening until someone acknowledged it, and until it was resolved.</Note>
      {times.isError ? (
        <Muted role="alert">The response times could not be loaded. {apiErrorMessage(times.error) ?? ''}</Muted>
      ) : !times.data ? (
        <Muted role="status">Loading…</Muted>
      ) : (
        <ResponsiveTable
          label="Response times per service"
          rows={times.data.services}
          rowKey={(row) => row.service ?? ''}
          columns={COLUMNS}
          empty={`No alert group opened in the last ${RESPONSE_DAYS} days.`}
        />
      )}
      {canOpen(user, ROUTES.onCall) ? <MoreLink to={ROUTES.onCall.path}>Open On Call</MoreLink> : null}
    </Frame>
  );
}
