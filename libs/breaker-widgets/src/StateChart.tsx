import { theme } from '@cbh/ui';
import { TimeSeriesChart } from '@cbh/ui/charts';
import { stateLabel } from './metrics-history';

const STATE_SERIES = [{ label: 'State', color: theme.colors.primary }];

/** A breaker state over time: CLOSED, HALF-OPEN and OPEN as steps. */
export function StateChart({ title, data, height = 140 }: { title: string; data: [number[], (number | null)[]]; height?: number }) {
  return (
    <TimeSeriesChart
      title={title}
      series={STATE_SERIES}
      data={data}
      stepped
      yRange={[0, 2]}
      ySplits={[0, 1, 2]}
      formatValue={stateLabel}
      height={height}
    />
  );
}
