import styled from 'styled-components';
import { apiErrorMessage, skipToken, useGetAlertGroupQuery, useGetAuthUserQuery } from '@cbh/api-client';
import { hasPermission, ROUTES, type AlertGroupDetailView, type AuthUser } from '@cbh/contracts';
import { Link, useParams } from '@cbh/router';
import { BackLink, Card, DetailPage, Muted, SectionTitle } from '@cbh/ui';
import { OnCallOnly } from '../on-call-access';
import { canActOn, groupIdFrom } from './alert-group-text';
import { GroupActions } from './AlertGroupActions';
import { AlertGroupDeliveries } from './AlertGroupDeliveries';
import { AlertGroupFacts } from './AlertGroupFacts';
import { AlertGroupTimeline } from './AlertGroupTimeline';

// grid children take min-width 0, so that a wide table scrolls in its own box rather than widening a phone's page
const Stack = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 20px;
`;

function NotFound() {
  return (
    <Card aria-labelledby="group-not-found">
      <SectionTitle id="group-not-found">Alert group not found</SectionTitle>
      <Muted>
        There is no alert group at this address. <Link to={ROUTES.onCall.path}>See all alert groups</Link>.
      </Muted>
    </Card>
  );
}

function GroupDetail({ group, user }: { group: AlertGroupDetailView; user: AuthUser }) {
  return (
    <Stack>
      <AlertGroupFacts group={group} user={user} />
      <AlertGroupTimeline entries={group.timeline} user={user} />
      <AlertGroupDeliveries deliveries={group.deliveries} />
    </Stack>
  );
}

/**
 * /on-call/groups/:id: one alert group, what happened to it and whom it paged, with the actions its state allows for
 * holders of circuit_breaker_operate. A live alertGroupChanged reads it again (no polling), so a colleague's
 * acknowledgement shows at once.
 */
export function AlertGroupPage() {
  const id = groupIdFrom(useParams().id);
  const { data: user } = useGetAuthUserQuery();
  const allowed = hasPermission(user, 'circuit_breaker_view');
  const group = useGetAlertGroupQuery(allowed && id !== null ? id : skipToken);
  const missing = id === null || (group.isError && (group.error as { status?: unknown }).status === 404);
  const shown = missing ? undefined : group.data;

  return (
    <DetailPage>
      <BackLink to={ROUTES.onCall.path}>← All alert groups</BackLink>
      <OnCallOnly
        title={shown?.title ?? ROUTES.alertGroup.title}
        description={shown ? `Alert group ${shown.id}` : ''}
        actions={shown && canActOn(user, shown) ? <GroupActions group={shown} /> : null}
      >
        {(account) =>
          missing ? (
            <NotFound />
          ) : shown ? (
            <GroupDetail group={shown} user={account} />
          ) : group.isError ? (
            // a domain's group, for someone without domain_management, is refused with the reason (a 403)
            <Muted role="alert">The alert group could not be loaded. {apiErrorMessage(group.error) ?? ''}</Muted>
          ) : (
            <Muted role="status">Loading the alert group…</Muted>
          )
        }
      </OnCallOnly>
    </DetailPage>
  );
}
