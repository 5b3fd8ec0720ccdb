import { useMemo } from 'react';
import type { DomainCheckView } from '@cbh/contracts';
import { theme } from '@cbh/ui';
import { TimeSeriesChart } from '@cbh/ui/charts';

const SERIES = [{ label: 'Response time', color: theme.colors.primary }];
const ms = (value: number) => `${Math.round(value)} ms`;

/** The domain's recent uptime checks as a line of response times; a failed check is a gap. Loaded when it first shows. */
export default function ResponseTimeChart({ checks }: { checks: readonly DomainCheckView[] }) {
  const data = useMemo(
    () =>
      [checks.map((check) => Date.parse(check.checkedAt) / 1000), checks.map((check) => check.responseTime)] as [
        number[],
        (number | null)[],
      ],
    [checks],
  );
  return (
    <TimeSeriesChart
      title={`Response time of the last ${checks.length} checks`}
      series={SERIES}
      data={data}
      height={160}
      formatValue={ms}
    />
  );
}
