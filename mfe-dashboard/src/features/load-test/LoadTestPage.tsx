import { Suspense, useState } from 'react';
import styled from 'styled-components';
import { METRICS_REFRESH_MS, stateOf, useGetAuthUserQuery, useGetBreakersQuery, useGetLatestMetricsQuery } from '@cbh/api-client';
import { HistoryCharts, RangePicker, useMetricsHistory } from '@cbh/breaker-widgets';
import { LoadTestPanel } from '@cbh/breaker-widgets/controls';
import { hasPermission, type HistoryRange } from '@cbh/contracts';
import { Card, Columns, Muted, PageHeader, StateBadge, theme } from '@cbh/ui';

/* one column as wide as the card: sized by its content, the charts' canvases would hold it at their first width */
const Charts = styled(Card)`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 12px;
  align-content: start;
  min-width: 0;
  h2 {
    margin: 0;
    font-size: 16px;
  }
`;
const Field = styled.label`
  display: grid;
  gap: 6px;
  font-size: 14px;
  font-weight: 500;
  margin-bottom: 16px;
  select {
    font: inherit;
    padding: 8px 10px;
    border: 1px solid ${theme.colors.border};
    border-radius: 6px;
  }
`;

/**
 * /load-test: run a load test through a breaker and watch its state, error %, throughput and latency: the last
 * 5 minutes of what the hub stored when the breaker is chosen (up to 24 h on request), then live.
 */
export function LoadTestPage() {
  const { data: user } = useGetAuthUserQuery();
  const canView = hasPermission(user, 'circuit_breaker_view');
  const { data: breakers = [], isLoading } = useGetBreakersQuery(undefined, { skip: !canView });
  const { data: metrics } = useGetLatestMetricsQuery(undefined, { skip: !canView, pollingInterval: METRICS_REFRESH_MS });
  const [chosen, setChosen] = useState<number | undefined>();
  const samples = useMetricsHistory();
  // a load test lasts minutes: the charts open on the last 5, and the picker reaches back a day
  const [range, setRange] = useState<HistoryRange>('5m');

  if (!canView) {
    return <PageHeader title="Run Load Test" description="You need the circuit_breaker_view permission to see load tests." />;
  }
  const configId = chosen ?? breakers[0]?.id;
  const breaker = breakers.find((entry) => entry.id === configId);

  return (
    <>
      <PageHeader
        title="Run Load Test"
        description="Send simulated traffic through a breaker and watch it react: its state, error rate and latency update every 2 seconds."
      />
      <Columns $columns="minmax(280px, 1fr) minmax(0, 2fr)" $gap={20}>
        <Card aria-label="Load test settings">
          <Field>
            Circuit breaker
            <select value={configId ?? ''} onChange={(event) => setChosen(Number(event.target.value))} disabled={breakers.length === 0}>
              {breakers.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.name} ({entry.type})
                </option>
              ))}
            </select>
          </Field>
          {isLoading ? <Muted>Loading circuit breakers…</Muted> : null}
          {breaker ? (
            <p style={{ margin: '0 0 16px' }}>
              State now: <StateBadge state={stateOf(metrics?.stats, breaker.id)} />{' '}
              <Muted as="span" style={{ fontSize: 13 }}>
                opens after {breaker.failureThreshold} failures, retries after {breaker.timeout / 1000} s
              </Muted>
            </p>
          ) : null}
          <LoadTestPanel configId={configId} canOperate={hasPermission(user, 'circuit_breaker_operate')} />
        </Card>
        {breaker ? (
          <Charts aria-labelledby="load-test-charts-title">
            <h2 id="load-test-charts-title">{breaker.name}: state, error %, throughput and latency</h2>
            <RangePicker value={range} onChange={setRange} label="Time range of the charts" />
            <Suspense fallback={<Muted role="status">Loading charts…</Muted>}>
              <HistoryCharts
                configId={breaker.id}
                range={range}
                samples={samples}
                current={stateOf(metrics?.stats, breaker.id)}
                callsStored={breaker.source === 'hub'}
              />
            </Suspense>
            {samples.length === 0 ? <Muted>Waiting for the first live figures…</Muted> : null}
          </Charts>
        ) : (
          <Card>
            <Muted>{isLoading ? 'Loading circuit breakers…' : 'No circuit breaker yet: create one first.'}</Muted>
          </Card>
        )}
      </Columns>
    </>
  );
}
