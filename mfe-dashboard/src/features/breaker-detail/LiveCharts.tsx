import { useState } from 'react';
import { HistoryCharts, RangePicker, type MetricsSample } from '@cbh/breaker-widgets';
import { DEFAULT_HISTORY_RANGE, type BreakerConfigView, type BreakerStateName, type HistoryRange } from '@cbh/contracts';

export interface LiveChartsProps {
  samples: MetricsSample[];
  breaker: BreakerConfigView;
  state: BreakerStateName;
}

/**
 * The breaker's state, error %, throughput and latency: the last hour from what the hub stores when the page opens
 * (5 min, 6 h or 24 h on request), then the live figures as they arrive. Part of the page's first render, so the card
 * has its full height from the start and nothing below it moves (uPlot loads later, inside frames of the charts' height).
 */
export function LiveCharts({ samples, breaker, state }: LiveChartsProps) {
  const [range, setRange] = useState<HistoryRange>(DEFAULT_HISTORY_RANGE);
  return (
    <>
      <RangePicker value={range} onChange={setRange} label="Time range of the charts" />
      <HistoryCharts configId={breaker.id} range={range} samples={samples} current={state} callsStored={breaker.source === 'hub'} />
    </>
  );
}
