import styled from 'styled-components';
import { useGetAuthUserQuery, useGetNotificationChannelsQuery } from '@cbh/api-client';
import { hasPermission, ROUTES } from '@cbh/contracts';
import { AccessRestricted, ButtonLink, Card, Muted, PageHeader } from '@cbh/ui';
import { ChannelsSection } from './ChannelsSection';
import { DeliveryLog } from './DeliveryLog';
import { RulesSection } from './RulesSection';
import { WindowsSection } from './WindowsSection';

const TITLE = ROUTES.notifications.title;
const DESCRIPTION =
  'Alerts that reach people who are not looking at the screen: when a breaker opens, sticks open or flaps, or a domain alert fires.';
export const NO_ACCESS_TEXT = 'You need the circuit_breaker_admin permission to manage notifications.';

// min-width 0 lets the tables inside scroll sideways instead of widening the page on a narrow screen
const Page = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 24px;
  min-width: 0;
  max-width: 100%;
`;

/** The page's four cards, for an account that may manage notifications: their reads start only once they are shown. */
function NotificationSettings({ domainEvents, breakerLinks }: { domainEvents: boolean; breakerLinks: boolean }) {
  const channels = useGetNotificationChannelsQuery();
  return (
    <>
      <ChannelsSection />
      <RulesSection domainEvents={domainEvents} />
      <WindowsSection />
      <DeliveryLog channels={channels.data ?? []} domainEvents={domainEvents} breakerLinks={breakerLinks} />
    </>
  );
}

/** /notifications: channels, rules, maintenance windows and the delivery log, for holders of circuit_breaker_admin. */
export function NotificationsPage() {
  const { data: user, isLoading } = useGetAuthUserQuery();
  return (
    <Page>
      <PageHeader title={TITLE} description={user ? DESCRIPTION : undefined} />
      {isLoading ? (
        <Muted role="status">Loading…</Muted>
      ) : !user ? (
        <Card>
          <Muted>Sign in to manage notifications.</Muted>
          <p>
            <ButtonLink href="/api/login">Login</ButtonLink>
          </p>
        </Card>
      ) : !hasPermission(user, 'circuit_breaker_admin') ? (
        <AccessRestricted message={NO_ACCESS_TEXT} />
      ) : (
        <NotificationSettings
          domainEvents={hasPermission(user, 'domain_management')}
          breakerLinks={hasPermission(user, 'circuit_breaker_view')}
        />
      )}
    </Page>
  );
}
