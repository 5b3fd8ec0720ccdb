import styled from 'styled-components';
import { drillPath, type DrillView } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Muted, ResponsiveTable, When, type TableColumn } from '@cbh/ui';
import { DrillStateBadge, VerdictBadge } from './DrillBadges';

// a finger's target (WCAG 2.5.8) over 24 px tall by its padding, taken back by a margin to keep the row's height
const NameLink = styled(Link)`
  display: inline-block;
  padding: 4px 0;
  margin: -4px 0;
  font-weight: 600;
  overflow-wrap: anywhere;
`;

/** The lesser columns give way as the table narrows; on a phone each drill is a card with every column a line. */
const COLUMNS: TableColumn<DrillView>[] = [
  { header: 'Name', cell: (drill) => <NameLink to={drillPath(drill.id)}>{drill.name}</NameLink> },
  { header: 'State', cell: (drill) => <DrillStateBadge state={drill.state} /> },
  { header: 'Verdict', cell: (drill) => <VerdictBadge verdict={drill.verdict} /> },
  { header: 'Started', cell: (drill) => <When at={drill.startedAt} />, nowrap: true, priority: 2 },
  { header: 'By', cell: (drill) => drill.startedBy ?? <Muted as="span">a removed account</Muted>, priority: 3 },
];

/** The drills as the API lists them, newest first. */
export function DrillTable({ drills }: { drills: readonly DrillView[] }) {
  return (
    <ResponsiveTable
      label="Drills"
      rows={drills}
      rowKey={(drill) => String(drill.id)}
      rowTestId={(drill) => `drill-${drill.id}`}
      columns={COLUMNS}
    />
  );
}
