import { useMemo } from 'react';
import styled from 'styled-components';
import { breakerSeries, StateChart, type MetricsSample } from '@cbh/breaker-widgets';
import { Muted, theme } from '@cbh/ui';
import { TimeSeriesChart } from '@cbh/ui/charts';
import { oneDecimal } from './figures';

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(320px, 100%), 1fr));
  gap: 20px;
  h3 {
    margin: 0 0 8px;
    font-size: 15px;
  }
`;

const ERROR_SERIES = [{ label: 'Errors', color: theme.colors.destructive }];
const LATENCY_SERIES = [
  { label: 'p50', color: theme.colors.success },
  { label: 'p90', color: theme.colors.halfOpen },
  { label: 'p99', color: theme.colors.destructive },
];
const THROUGHPUT_SERIES = [{ label: 'Calls/s', color: theme.colors.primary }];
const percent = (value: number) => `${oneDecimal(value)}%`;
const ms = (value: number) => `${Math.round(value)} ms`;
const perSecond = (value: number) => `${oneDecimal(value)} calls/s`;

/** The breaker's state, error %, latency and throughput over the last minutes. Loaded when the page first shows. */
export default function LiveCharts({ samples, configId }: { samples: MetricsSample[]; configId: number }) {
  const series = useMemo(() => breakerSeries(samples, configId), [samples, configId]);
  return (
    <>
      {samples.length === 0 ? <Muted style={{ marginBottom: 12 }}>Waiting for the first live figures…</Muted> : null}
      <Grid>
        <div>
          <h3>State</h3>
          <StateChart title="Breaker state" data={series.state} />
        </div>
        <div>
          <h3>Error %</h3>
          <TimeSeriesChart title="Error percentage" series={ERROR_SERIES} data={series.errors} yRange={[0, 100]} formatValue={percent} />
        </div>
        <div>
          <h3>Latency</h3>
          <TimeSeriesChart title="Latency percentiles" series={LATENCY_SERIES} data={series.latency} formatValue={ms} />
        </div>
        <div>
          <h3>Throughput</h3>
          <TimeSeriesChart title="Throughput" series={THROUGHPUT_SERIES} data={series.throughput} formatValue={perSecond} />
        </div>
      </Grid>
    </>
  );
}
