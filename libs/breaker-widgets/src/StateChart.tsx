import type uPlot from 'uplot';
import { theme } from '@cbh/ui';
import { TimeSeriesChart } from '@cbh/ui/charts';
import { stateLabel } from './metrics-history';

const STATE_SERIES = [{ label: 'State', color: theme.colors.text }];

/** A breaker state over time: CLOSED, HALF-OPEN and OPEN as steps (`plugins` may colour and mark it). */
export function StateChart({
  title,
  data,
  height = 140,
  plugins,
}: {
  title: string;
  data: [number[], (number | null)[]];
  height?: number;
  plugins?: uPlot.Plugin[];
}) {
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
      plugins={plugins}
    />
  );
}
