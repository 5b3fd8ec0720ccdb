import styled from 'styled-components';
import { apiErrorMessage, useResolveDomainAlertMutation } from '@cbh/api-client';
import { DOMAIN_ALERT_TYPE_LABELS, type DomainAlertView } from '@cbh/contracts';
import { Button, DataTable, toast, VisuallyHidden, When } from '@cbh/ui';
import { titleCase } from './domain-display';
import { SeverityBadge, StatusBadge } from './StatusBadge';

const ALERT_COLUMNS = ['Domain', 'Alert Type', 'Severity', 'Status', 'Triggered', 'Message', 'Actions'];

const Message = styled.td`
  min-width: 220px;
`;

function ResolveButton({ alert, domain }: { alert: DomainAlertView; domain: string }) {
  const [resolve, { isLoading }] = useResolveDomainAlertMutation();
  const click = async () => {
    try {
      await resolve(alert.id).unwrap();
      toast({ title: 'Alert Resolved', description: `${DOMAIN_ALERT_TYPE_LABELS[alert.alertType] ?? alert.alertType} for ${domain}.` });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to resolve the alert.', variant: 'destructive' });
    }
  };
  return (
    <Button $variant="outline" onClick={click} disabled={isLoading}>
      {isLoading ? 'Resolving...' : 'Resolve'}
      <VisuallyHidden>
        {' '}
        {DOMAIN_ALERT_TYPE_LABELS[alert.alertType] ?? alert.alertType} for {domain}
      </VisuallyHidden>
    </Button>
  );
}

/** Alerts newest first; an open one can be resolved by hand. */
export function AlertsTable({ alerts, domainName }: { alerts: readonly DomainAlertView[]; domainName: (domainId: number) => string }) {
  return (
    <DataTable label="Alerts" minWidth={900} columns={ALERT_COLUMNS} empty="No alerts: nothing needs attention.">
      {alerts.map((alert) => (
        <tr key={alert.id} data-testid={`alert-row-${alert.id}`}>
          <td>{domainName(alert.domainId)}</td>
          <td>{DOMAIN_ALERT_TYPE_LABELS[alert.alertType] ?? titleCase(alert.alertType)}</td>
          <td>
            <SeverityBadge severity={alert.severity} />
          </td>
          <td>
            <StatusBadge status={alert.status} />
          </td>
          <td>
            <When at={alert.triggeredAt} />
          </td>
          <Message>{alert.message}</Message>
          <td>{alert.status === 'open' ? <ResolveButton alert={alert} domain={domainName(alert.domainId)} /> : null}</td>
        </tr>
      ))}
    </DataTable>
  );
}
