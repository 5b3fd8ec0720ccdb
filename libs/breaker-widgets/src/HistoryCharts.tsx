import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import styled from 'styled-components';
import { apiErrorMessage } from '@cbh/api-client';
import { HISTORY_RANGES, type BreakerStateName, type HistoryRange } from '@cbh/contracts';
import { Muted, STATE_COLORS, theme } from '@cbh/ui';
import { TimeSeriesChart } from '@cbh/ui/charts';
import { historySeries } from './breaker-history';
import { marksPlugin, spansPlugin, type ChartOverlay } from './chart-plugins';
import { useGetBreakerHistoryQuery } from './history-api';
import type { MetricsSample } from './metrics-history';
import { StateChart } from './StateChart';
import { STATE_LABEL } from './BreakerStateDiagram';

const Grid = styled.div`
  position: relative;
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(320px, 100%), 1fr));
  gap: 20px;
  h3 {
    margin: 0 0 8px;
    font-size: 15px;
  }
`;
const Key = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 4px 14px;
  list-style: none;
  margin: 4px 0 0;
  padding: 0;
  font-size: 13px;
  color: ${theme.colors.muted};
  li::before {
    content: '';
    display: inline-block;
    width: 10px;
    height: 10px;
    margin-right: 6px;
    border-radius: 2px;
    background: var(--key-color);
  }
`;
// Over the charts' top edge rather than above them: a line that came and went would move everything below the card
// (the journal's replay controls among it) as the stored history arrives.
const Loading = styled(Muted)`
  position: absolute;
  top: 0;
  right: 0;
  margin: 0;
  font-size: 13px;
`;
const Note = styled(Muted)`
  margin: 4px 0 0;
  font-size: 13px;
`;

const ERROR_SERIES = [{ label: 'Errors', color: theme.colors.destructive }];
const LATENCY_SERIES = [
  { label: 'p50', color: theme.colors.success },
  { label: 'p90', color: theme.colors.halfOpen },
  { label: 'p99', color: theme.colors.destructive },
];
const THROUGHPUT_SERIES = [{ label: 'Calls/s', color: theme.colors.primary }];
const oneDecimal = (value: number) => Math.round(value * 10) / 10;
const percent = (value: number) => `${oneDecimal(value)}%`;
const ms = (value: number) => `${Math.round(value)} ms`;
const perSecond = (value: number) => `${oneDecimal(value)} calls/s`;
const STATES: BreakerStateName[] = ['CLOSED', 'HALF_OPEN', 'OPEN'];

/** Now in seconds, moved on with each render (the live samples re-render every 2 s) and at least every 10 s. */
function useNow(): number {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((count) => count + 1), 10_000);
    return () => clearInterval(timer);
  }, []);
  return Date.now() / 1000;
}

export interface HistoryChartsProps {
  configId: number;
  range: HistoryRange;
  samples: MetricsSample[];
  /** The state now, for a breaker whose journal says nothing of the range. */
  current: BreakerStateName;
  /** A service's breaker: the hub stores none of its calls, so its past is its journal's moves only. */
  callsStored?: boolean;
}

/**
 * One breaker's state, error %, throughput and latency over the range: the stored steps, then the live figures as
 * they arrive. The state chart is coloured by state; every chart marks the journal's moves. Latency is live only.
 */
export function HistoryCharts({ configId, range, samples, current, callsStored = true }: HistoryChartsProps) {
  const history = useGetBreakerHistoryQuery({ id: configId, range });
  const now = useNow();
  const series = useMemo(
    () => historySeries(history.currentData, samples, configId, range, now, current),
    // `now` moves every render: the series follow the samples, the answer and the range
    [history.currentData, samples, configId, range, current],
  );
  const overlay: ChartOverlay = useRef(series);
  overlay.current = series;
  const plugins = useMemo(() => [marksPlugin(overlay)], [overlay]);
  const statePlugins = useMemo(() => [spansPlugin(overlay), marksPlugin(overlay)], [overlay]);
  const label = HISTORY_RANGES[range].label;
  const moves = series.marks.length;
  const noTraffic = series.busySteps === 0;

  return (
    <>
      {history.isError ? (
        <Muted role="alert" style={{ marginBottom: 12 }}>
          The stored history could not be loaded; the charts show live figures only. {apiErrorMessage(history.error) ?? ''}
        </Muted>
      ) : null}
      <Note data-testid="history-summary">
        Last {label}: {noTraffic ? 'no traffic' : 'calls recorded'}; {moves === 1 ? '1 state change' : `${moves} state changes`}, marked by
        dashed lines in the colour of the state entered.
        {callsStored ? '' : ' The hub stores no calls of a service’s breaker: its figures are live since the page opened.'}
      </Note>
      <Grid style={{ marginTop: 12 }}>
        {history.isFetching && !history.currentData ? <Loading role="status">Loading the last {label}…</Loading> : null}
        <div>
          <h3>State</h3>
          <StateChart title="Breaker state" data={series.state} plugins={statePlugins} />
          <Key aria-label="State colours">
            {STATES.map((state) => (
              <li key={state} style={{ '--key-color': STATE_COLORS[state] } as CSSProperties}>
                {STATE_LABEL[state]}
              </li>
            ))}
          </Key>
        </div>
        <div>
          <h3>Error %</h3>
          <TimeSeriesChart
            title="Error percentage"
            series={ERROR_SERIES}
            data={series.errors}
            yRange={[0, 100]}
            formatValue={percent}
            plugins={plugins}
          />
          <Note>Gaps: no traffic (no calls, so no error rate).</Note>
        </div>
        <div>
          <h3>Throughput</h3>
          <TimeSeriesChart
            title="Throughput"
            series={THROUGHPUT_SERIES}
            data={series.throughput}
            formatValue={perSecond}
            plugins={plugins}
          />
        </div>
        <div>
          <h3>Latency (live only)</h3>
          <TimeSeriesChart title="Latency percentiles" series={LATENCY_SERIES} data={series.latency} formatValue={ms} plugins={plugins} />
          <Note>The hub keeps no latency history: this chart starts when the page opens. Gaps: no traffic.</Note>
        </div>
      </Grid>
    </>
  );
}
