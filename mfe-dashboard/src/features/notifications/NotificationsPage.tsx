import { useGetNotificationChannelsQuery } from '@cbh/api-client';
import { canOpen, hasPermission, ROUTES } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { theme } from '@cbh/ui';
import styled from 'styled-components';
import { AdminPage } from '../shared/admin-page';
import { ChannelsSection } from './ChannelsSection';
import { DeliveryLog } from './DeliveryLog';
import { RulesSection } from './RulesSection';
import { WindowsSection } from './WindowsSection';

const TITLE = ROUTES.notifications.title;

// a small link rather than a button: the status pages are another page, not an action of this one
const RelatedLink = styled(Link)`
  font-size: 14px;
  color: ${theme.colors.primary};
`;
const DESCRIPTION =
  'Alerts that reach people who are not looking at the screen: when a breaker opens, sticks open or flaps, or a domain alert fires.';
export const NO_ACCESS_TEXT = 'You need the circuit_breaker_admin permission to manage notifications.';

/** The page's four cards, for an account that may manage notifications: their reads start only once they are shown. */
function NotificationSettings({ domainEvents, breakerLinks }: { domainEvents: boolean; breakerLinks: boolean }) {
  const channels = useGetNotificationChannelsQuery();
  return (
    <>
      <ChannelsSection />
      <RulesSection domainEvents={domainEvents} />
      <WindowsSection domainAccess={domainEvents} />
      <DeliveryLog channels={channels.data ?? []} domainEvents={domainEvents} breakerLinks={breakerLinks} />
    </>
  );
}

/** /notifications: channels, rules, maintenance windows and the delivery log, for holders of circuit_breaker_admin. */
export function NotificationsPage() {
  return (
    <AdminPage
      title={TITLE}
      description={DESCRIPTION}
      what="notifications"
      noAccessText={NO_ACCESS_TEXT}
      gap={24}
      actions={(user) => (canOpen(user, ROUTES.statusPages) ? <RelatedLink to={ROUTES.statusPages.path}>Status pages</RelatedLink> : null)}
    >
      {(user) => (
        <NotificationSettings
          domainEvents={hasPermission(user, 'domain_management')}
          breakerLinks={hasPermission(user, 'circuit_breaker_view')}
        />
      )}
    </AdminPage>
  );
}
