import type { DomainMonitoringView } from '@cbh/contracts';
import { DataTable, When } from '@cbh/ui';
import { responseTimeText, titleCase, uptimeText } from './domain-display';
import { StatusBadge } from './StatusBadge';

const MONITORING_COLUMNS = ['Domain', 'Type', 'Status', 'Response Time', 'Uptime', 'Last Check'];

/** Each domain's uptime check: the last answer, its response time and the uptime over 30 days. */
export function MonitoringTable({
  entries,
  domainName,
}: {
  entries: readonly DomainMonitoringView[];
  domainName: (domainId: number) => string;
}) {
  return (
    <DataTable label="Monitoring" minWidth={720} columns={MONITORING_COLUMNS} empty="No monitoring yet: add a domain to have it checked.">
      {entries.map((entry) => (
        <tr key={entry.id}>
          <td>{domainName(entry.domainId)}</td>
          <td>{titleCase(entry.monitoringType)}</td>
          <td>
            <StatusBadge status={entry.lastStatus} label={entry.lastStatus ? titleCase(entry.lastStatus) : 'Not checked'} />
          </td>
          <td>{responseTimeText(entry.responseTime)}</td>
          <td>{uptimeText(entry.uptimePercentage)}</td>
          <td>
            <When at={entry.lastCheck} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
