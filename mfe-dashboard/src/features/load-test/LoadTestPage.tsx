import { useState } from 'react';
import styled from 'styled-components';
import { METRICS_REFRESH_MS, stateOf, useGetAuthUserQuery, useGetBreakersQuery, useGetLatestMetricsQuery } from '@cbh/api-client';
import { breakerSeries, LoadTestPanel, StateChart, useMetricsHistory } from '@cbh/breaker-widgets';
import { TimeSeriesChart } from '@cbh/ui/charts';
import { hasPermission } from '@cbh/contracts';
import { Card, Columns, Muted, PageHeader, StateBadge, theme } from '@cbh/ui';

const Charts = styled.div`
  display: grid;
  gap: 20px;
  h2 {
    margin: 0 0 8px;
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

/** /load-test: run a load test through a breaker and watch its state, error % and latency live. */
export function LoadTestPage() {
  const { data: user } = useGetAuthUserQuery();
  const canView = hasPermission(user, 'circuit_breaker_view');
  const { data: breakers = [], isLoading } = useGetBreakersQuery(undefined, { skip: !canView });
  const { data: metrics } = useGetLatestMetricsQuery(undefined, { skip: !canView, pollingInterval: METRICS_REFRESH_MS });
  const [chosen, setChosen] = useState<number | undefined>();
  const samples = useMetricsHistory();

  if (!canView) {
    return <PageHeader title="Run Load Test" description="You need the circuit_breaker_view permission to see load tests." />;
  }
  const configId = chosen ?? breakers[0]?.id;
  const breaker = breakers.find((entry) => entry.id === configId);
  const series = configId === undefined ? null : breakerSeries(samples, configId);

  return (
    <>
      <PageHeader
        title="Run Load Test"
        description="Send simulated traffic through a breaker and watch it react: its state, error rate and latency update every 2 seconds."
      />
      <Columns $columns="minmax(280px, 1fr) 2fr" $gap={20}>
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
        <Charts>
          {series ? (
            <>
              <Card aria-label="State over time">
                <h2>State</h2>
                <StateChart title="Breaker state" data={series.state} />
              </Card>
              <Card aria-label="Error rate over time">
                <h2>Error %</h2>
                <TimeSeriesChart
                  title="Error percentage"
                  series={[{ label: 'Errors', color: theme.colors.destructive }]}
                  data={series.errors}
                  yRange={[0, 100]}
                  formatValue={(value) => `${value}%`}
                />
              </Card>
              <Card aria-label="Latency over time">
                <h2>Latency</h2>
                <TimeSeriesChart
                  title="Latency percentiles"
                  series={[
                    { label: 'p50', color: theme.colors.success },
                    { label: 'p90', color: theme.colors.halfOpen },
                    { label: 'p99', color: theme.colors.destructive },
                  ]}
                  data={series.latency}
                  formatValue={(value) => `${value} ms`}
                />
              </Card>
              {samples.length === 0 ? <Muted>Waiting for the first live figures…</Muted> : null}
            </>
          ) : (
            <Card>
              <Muted>No circuit breaker yet: create one first.</Muted>
            </Card>
          )}
        </Charts>
      </Columns>
    </>
  );
}
