import type { DomainMonitoringView } from '@cbh/contracts';
import { Muted, ScrollArea, Table } from '@cbh/ui';
import { dateTimeOrNever, responseTimeText, titleCase, uptimeText } from './domain-display';
import { StatusBadge } from './StatusBadge';

/** Each domain's uptime check: the last answer, its response time and the uptime over 30 days. */
export function MonitoringTable({
  entries,
  domainName,
}: {
  entries: readonly DomainMonitoringView[];
  domainName: (domainId: number) => string;
}) {
  if (entries.length === 0) return <Muted>No monitoring yet: add a domain to have it checked.</Muted>;
  return (
    <ScrollArea role="region" aria-label="Monitoring" tabIndex={0}>
      <Table $minWidth={720}>
        <thead>
          <tr>
            <th scope="col">Domain</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Response Time</th>
            <th scope="col">Uptime</th>
            <th scope="col">Last Check</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>{domainName(entry.domainId)}</td>
              <td>{titleCase(entry.monitoringType)}</td>
              <td>
                <StatusBadge status={entry.lastStatus} label={entry.lastStatus ? titleCase(entry.lastStatus) : 'Not checked'} />
              </td>
              <td>{responseTimeText(entry.responseTime)}</td>
              <td>{uptimeText(entry.uptimePercentage)}</td>
              <td>{dateTimeOrNever(entry.lastCheck)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </ScrollArea>
  );
}
