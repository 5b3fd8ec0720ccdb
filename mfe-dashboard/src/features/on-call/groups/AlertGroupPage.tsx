import { apiErrorMessage, skipToken, useGetAlertGroupQuery, useGetAuthUserQuery } from '@cbh/api-client';
import { hasPermission, ROUTES, type AlertGroupDetailView, type AuthUser } from '@cbh/contracts';
import { useParams } from '@cbh/router';
import { BackLink, DetailPage, Muted } from '@cbh/ui';
import { OnCallOnly } from '../on-call-access';
import { DetailStack } from '../../shared/detail-parts';
import { NotFoundCard } from '../../shared/not-found-card';
import { recordIdFrom } from '../../shared/record-id';
import { canActOn } from './alert-group-text';
import { GroupActions } from './AlertGroupActions';
import { AlertGroupDeliveries } from './AlertGroupDeliveries';
import { AlertGroupFacts } from './AlertGroupFacts';
import { AlertGroupTimeline } from './AlertGroupTimeline';

const NOT_FOUND = {
  title: 'Alert group not found',
  text: 'There is no alert group at this address.',
  back: { to: ROUTES.onCall.path, label: 'See all alert groups' },
};

function GroupDetail({ group, user }: { group: AlertGroupDetailView; user: AuthUser }) {
  return (
    <DetailStack>
      <AlertGroupFacts group={group} user={user} />
      <AlertGroupTimeline entries={group.timeline} user={user} />
      <AlertGroupDeliveries deliveries={group.deliveries} />
    </DetailStack>
  );
}

/**
 * /on-call/groups/:id: one alert group, what happened to it and whom it paged, with the actions its state allows for
 * holders of circuit_breaker_operate. A live alertGroupChanged reads it again (no polling), so a colleague's
 * acknowledgement shows at once.
 */
export function AlertGroupPage() {
  const id = recordIdFrom(useParams().id);
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
            <NotFoundCard {...NOT_FOUND} />
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
