import { useMemo, useState } from 'react';
import styled from 'styled-components';
import { SLO_WINDOW_DAYS, sloPath, type SloView } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { FieldLabel, Muted, ResponsiveTable, Select, type TableColumn } from '@cbh/ui';
import { BudgetLeft, SloStatusBadge } from './SloFigures';
import { indicatorText, percentText, sliText, statusRank, windowText } from './slo-text';

// a finger's target (WCAG 2.5.8) over 24 px tall by its padding, taken back by a margin to keep the row's height
const NameLink = styled(Link)`
  display: inline-block;
  padding: 4px 0;
  margin: -4px 0;
  font-weight: 600;
  overflow-wrap: anywhere;
`;

const Filter = styled(FieldLabel)`
  grid-template-columns: auto minmax(0, 1fr);
  align-items: center;
  max-width: 100%;
  select {
    min-width: 0;
  }
`;

const dash = <Muted as="span">—</Muted>;

/** Every column sorts; the lesser ones give way as the table narrows (a card per SLO on a phone). */
const COLUMNS: TableColumn<SloView>[] = [
  { header: 'Name', cell: (slo) => <NameLink to={sloPath(slo.id)}>{slo.name}</NameLink>, sortValue: (slo) => slo.name },
  {
    header: 'Indicator',
    cell: (slo) => indicatorText(slo.indicator.kind),
    sortValue: (slo) => indicatorText(slo.indicator.kind),
    priority: 2,
  },
  { header: 'Service', cell: (slo) => slo.service ?? dash, sortValue: (slo) => slo.service, priority: 3 },
  { header: 'Target', cell: (slo) => percentText(slo.target), sortValue: (slo) => slo.target, nowrap: true },
  { header: 'Window', cell: (slo) => windowText(slo.window), sortValue: (slo) => SLO_WINDOW_DAYS[slo.window], nowrap: true, priority: 3 },
  { header: 'SLI', cell: (slo) => sliText(slo.sli), sortValue: (slo) => slo.sli, nowrap: true },
  {
    header: 'Budget left',
    cell: (slo) => <BudgetLeft remaining={slo.errorBudgetRemaining} status={slo.status} />,
    sortValue: (slo) => slo.errorBudgetRemaining,
  },
  { header: 'Status', cell: (slo) => <SloStatusBadge status={slo.status} />, sortValue: (slo) => statusRank(slo.status) },
];

const ALL = '';

/**
 * The SLOs, the worst status first until a heading says otherwise, narrowed to one service by a select of the
 * services the list names (the list is read whole, so the filter does not ask the API again).
 */
export function SloTable({ slos }: { slos: readonly SloView[] }) {
  const [service, setService] = useState(ALL);
  const services = useMemo(() => [...new Set(slos.flatMap((slo) => (slo.service ? [slo.service] : [])))].sort(), [slos]);
  const shown = useMemo(() => (service === ALL ? slos : slos.filter((slo) => slo.service === service)), [slos, service]);

  const filter =
    services.length > 0 ? (
      <Filter>
        Service
        <Select value={service} onChange={(event) => setService(event.target.value)}>
          <option value={ALL}>All services</option>
          {services.map((each) => (
            <option key={each} value={each}>
              {each}
            </option>
          ))}
        </Select>
      </Filter>
    ) : null;

  return (
    <ResponsiveTable
      label="SLOs"
      rows={shown}
      rowKey={(slo) => String(slo.id)}
      rowTestId={(slo) => `slo-${slo.id}`}
      columns={COLUMNS}
      initialSort={{ column: 'Status', direction: 'descending' }}
      toolbar={filter}
      empty="No SLO of this service."
    />
  );
}
