import { breakerPath, type DrillExpectationView } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Card, Muted, ResponsiveTable, SectionTitle, type TableColumn } from '@cbh/ui';
import { durationText } from '../shared/duration-text';
import { VerdictBadge } from './DrillBadges';
import { expectedText } from './drill-text';

const COLUMNS: TableColumn<DrillExpectationView & { key: number }>[] = [
  { header: 'Breaker', cell: (expectation) => <Link to={breakerPath(expectation.breaker.id)}>{expectation.breaker.name}</Link> },
  {
    header: 'Expected',
    cell: expectedText,
  },
  { header: 'Result', cell: (expectation) => <VerdictBadge verdict={expectation.result} /> },
  { header: 'Took', cell: (expectation) => durationText(expectation.tookSeconds), nowrap: true },
];

/** How the breakers were expected to react, and whether they did: met (and how long it took), missed, or still pending. */
export function DrillExpectations({ expectations }: { expectations: readonly DrillExpectationView[] }) {
  return (
    <Card aria-labelledby="drill-expectations-title">
      <SectionTitle id="drill-expectations-title">Expectations</SectionTitle>
      {expectations.length === 0 ? (
        <Muted>This drill set no expectations: its timeline tells what happened.</Muted>
      ) : (
        <ResponsiveTable
          label="Expectations"
          rows={expectations.map((expectation, key) => ({ ...expectation, key }))}
          rowKey={(expectation) => String(expectation.key)}
          rowTestId={(expectation) => `expectation-${expectation.key}`}
          columns={COLUMNS}
        />
      )}
    </Card>
  );
}
