import styled from 'styled-components';
import type { DnsRecordView } from '@cbh/contracts';
import { Muted, ScrollArea, Table } from '@cbh/ui';
import { StatusBadge } from './StatusBadge';

/** Long TXT values wrap instead of widening the table. */
const Value = styled.td`
  max-width: 360px;
  overflow-wrap: anywhere;
  font-family: ui-monospace, monospace;
  font-size: 13px;
`;

/** DNS records as the rounds found them; one no longer found stays listed as Inactive. */
export function DnsRecordsTable({
  records,
  domainName,
  showDomain = true,
  label = 'DNS records',
}: {
  records: readonly DnsRecordView[];
  domainName?: (domainId: number) => string;
  showDomain?: boolean;
  /** the scrolling region's name */
  label?: string;
}) {
  if (records.length === 0) return <Muted>No DNS records yet: they are read in each round of a verified domain.</Muted>;
  return (
    <ScrollArea role="region" aria-label={label} tabIndex={0}>
      <Table $minWidth={showDomain ? 720 : 560}>
        <thead>
          <tr>
            {showDomain ? <th scope="col">Domain</th> : null}
            <th scope="col">Type</th>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
            <th scope="col">TTL</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={record.id}>
              {showDomain && domainName ? <td>{domainName(record.domainId)}</td> : null}
              <td>{record.recordType}</td>
              <td>{record.name}</td>
              <Value>{record.value}</Value>
              <td>{record.ttl} s</td>
              <td>
                {/* Active in green like every active status; Inactive grey */}
                <StatusBadge status={record.isActive ? 'active' : 'inactive'} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </ScrollArea>
  );
}
