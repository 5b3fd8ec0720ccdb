import { apiErrorMessage, useGetDomainAlertsQuery, useGetDomainsQuery } from '@cbh/api-client';
import { DOMAIN_ALERT_TYPE_LABELS, ROUTES, type AlertSeverity } from '@cbh/contracts';
import { Badge, Card, Dot, Muted, theme, When } from '@cbh/ui';
import { Detail, Empty, List, MoreLink, RowMain, SectionTitle } from './dashboard-parts';

/** How many firing alerts the card lists; the Domains page has them all. */
export const ALERTS_SHOWN = 5;

const SEVERITY_COLORS: Record<AlertSeverity, string> = {
  critical: theme.colors.open,
  high: theme.colors.orange,
  medium: theme.colors.yellow,
  low: theme.colors.grey,
};

/**
 * The domain alerts firing now (open), newest first, for a domain manager: read from the Domains page's own lists
 * (the same cache), which a live domainAlert message refreshes.
 */
export function DomainAlertsCard() {
  const alerts = useGetDomainAlertsQuery();
  const domains = useGetDomainsQuery();
  const names = new Map((domains.data ?? []).map((domain) => [domain.id, domain.domain]));
  const firing = (alerts.data ?? []).filter((alert) => alert.status === 'open');
  return (
    <Card aria-labelledby="domain-alerts-title">
      <SectionTitle id="domain-alerts-title">Domain Alerts</SectionTitle>
      {alerts.isError ? (
        <Muted role="alert">The domain alerts could not be loaded. {apiErrorMessage(alerts.error) ?? ''}</Muted>
      ) : !alerts.data ? (
        <Muted role="status">Loading…</Muted>
      ) : firing.length === 0 ? (
        <Empty>
          <span>
            <Dot $color={theme.colors.success} aria-hidden /> No domain alert is firing.
          </span>
        </Empty>
      ) : (
        <List aria-label="Firing domain alerts">
          {firing.slice(0, ALERTS_SHOWN).map((alert) => (
            <li key={alert.id}>
              <RowMain>
                <Badge $color={SEVERITY_COLORS[alert.severity]}>{alert.severity}</Badge>
                <strong>{names.get(alert.domainId) ?? `Domain ${alert.domainId}`}</strong>
                <span>{DOMAIN_ALERT_TYPE_LABELS[alert.alertType] ?? alert.alertType}</span>
              </RowMain>
              <Muted as="span">
                <When at={alert.triggeredAt} />
              </Muted>
              <Detail>{alert.message}</Detail>
            </li>
          ))}
        </List>
      )}
      <MoreLink to={ROUTES.domains.path}>
        {firing.length > ALERTS_SHOWN ? `All ${firing.length} firing alerts on Domains` : 'Open Domains'}
      </MoreLink>
    </Card>
  );
}
