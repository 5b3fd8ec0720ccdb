import styled from 'styled-components';
import type { DnsRecordView } from '@cbh/contracts';
import { DataTable } from '@cbh/ui';
import { StatusBadge } from './StatusBadge';

const COLUMNS = ['Type', 'Name', 'Value', 'TTL', 'Status'];

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
  return (
    <DataTable
      label={label}
      minWidth={showDomain ? 720 : 560}
      columns={showDomain ? ['Domain', ...COLUMNS] : COLUMNS}
      empty="No DNS records yet: they are read in each round of a verified domain."
    >
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
    </DataTable>
  );
}
