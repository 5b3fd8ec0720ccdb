import { useCallback, useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import {
  SERVICES_SECTION_METRICS_REFRESH_MS,
  stateOf,
  useGetLatestMetricsQuery,
  useGetServicesQuery,
  useLiveMessages,
  useTestServiceMutation,
} from '@cbh/api-client';
import type { ServerMessage, ServiceView, TestResultView } from '@cbh/contracts';
import { Badge, Button, Card, Columns, Dot, formatClockTime, Muted, STATE_COLORS, StateBadge, theme, toast } from '@cbh/ui';
import { Section } from './Section';
import { CONTINUOUS_TEST_INTERVAL_MS, prependResult, SERVICES_SHOWN } from './service-testing';

const ServiceGrid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(220px, 1fr));
  gap: 12px;
  h3 {
    display: flex;
    align-items: center;
    gap: 8px;
    margin: 0 0 4px;
    font-size: 16px;
  }
`;
const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;
  margin-bottom: 12px;
`;
const Results = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  max-height: 16rem;
  overflow-y: auto;
  display: grid;
  gap: 6px;
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px;
    padding: 6px 8px;
    border: 1px solid ${theme.colors.border};
    border-radius: 6px;
    font-size: 13px;
  }
`;
const Endpoint = styled.code`
  display: block;
  font-size: 12px;
  color: ${theme.colors.muted};
  overflow-wrap: anywhere;
  margin-bottom: 8px;
`;

function ResultRow({ result, services }: { result: TestResultView; services: ServiceView[] }) {
  const name = services.find((service) => service.id === result.serviceId)?.name ?? `Service ${result.serviceId}`;
  return (
    <li data-testid="test-result">
      <Badge $color={result.success ? theme.colors.success : theme.colors.destructive}>{result.success ? 'Success' : 'Failed'}</Badge>
      <strong>{name}</strong>
      <span>{result.responseTime} ms</span>
      <StateBadge state={result.circuitBreakerState} />
      {result.error ? <span>{result.error}</span> : null}
      <Muted as="span" style={{ fontSize: 12, marginLeft: 'auto' }}>
        {formatClockTime(result.at)}
      </Muted>
    </li>
  );
}

const GUIDE = [
  ['Single test', 'Press Test on a service to send one call through its breaker.'],
  ['Continuous testing', 'Auto Test calls every service once a second until you press Stop.'],
  ['Observe state changes', 'Watch the state badges: failures open a breaker, and it half-opens after its timeout.'],
  ['Analyze patterns', 'Read the results: response times, errors and the state each call met.'],
] as const;
const TIPS = [
  'A service without a breaker always shows CLOSED.',
  'Calls refused by an open breaker return at once with 0 ms.',
  'Results from other people testing the same services appear here too.',
];

/** Interactive circuit breaker testing: test the first 4 services once or every second, watch results live. */
export function ServiceTesting({ canOperate }: { canOperate: boolean }) {
  const { data: allServices = [], isLoading } = useGetServicesQuery();
  const { data: metrics } = useGetLatestMetricsQuery(undefined, { pollingInterval: SERVICES_SECTION_METRICS_REFRESH_MS });
  const [testService] = useTestServiceMutation();
  const [pending, setPending] = useState<ReadonlySet<number>>(new Set());
  const [results, setResults] = useState<TestResultView[]>([]);
  const [running, setRunning] = useState(false);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  const services = allServices.slice(0, SERVICES_SHOWN);
  const shown = useRef(services);
  shown.current = services;

  useLiveMessages(
    useCallback((message: ServerMessage) => {
      if (message.type === 'testResult') setResults((current) => prependResult(current, message.data));
    }, []),
  );

  const runTest = useCallback(
    async (id: number) => {
      setPending((current) => new Set(current).add(id));
      try {
        await testService(id).unwrap();
      } catch {
        toast({ title: 'Test Failed', description: 'Service test encountered an error.', variant: 'destructive' });
      } finally {
        setPending((current) => {
          const next = new Set(current);
          next.delete(id);
          return next;
        });
      }
    },
    [testService],
  );

  const startContinuous = () => {
    if (timer.current) return;
    timer.current = setInterval(() => shown.current.forEach((service) => void runTest(service.id)), CONTINUOUS_TEST_INTERVAL_MS);
    setRunning(true);
    toast({ title: 'Continuous Testing Started', description: `Testing ${shown.current.length} services every second.` });
  };
  const stopContinuous = () => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
    setRunning(false);
    toast({ title: 'Continuous Testing Stopped', description: 'Automatic service tests have been stopped.' });
  };
  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current);
    },
    [],
  );

  return (
    <Section
      id="service-testing"
      title="Interactive Circuit Breaker Testing"
      intro="Call real services through their breakers and watch the results arrive live."
    >
      <Columns $columns="2fr 1fr">
        <div>
          <Toolbar>
            <Button
              onClick={running ? stopContinuous : startContinuous}
              disabled={!canOperate || services.length === 0}
              $variant={running ? 'outline' : 'primary'}
            >
              {running ? 'Stop' : 'Auto Test'}
            </Button>
            <Button $variant="ghost" onClick={() => setResults([])}>
              Clear Results
            </Button>
            {running ? <Badge $color={theme.colors.success}>Running</Badge> : null}
            {canOperate ? null : <Muted style={{ fontSize: 13 }}>Testing services needs the circuit_breaker_operate permission.</Muted>}
          </Toolbar>
          <ServiceGrid>
            {services.map((service) => {
              const state = stateOf(metrics?.stats, service.circuitBreakerConfigId);
              return (
                <Card key={service.id} aria-label={service.name} data-testid="service-card">
                  <h3>
                    <Dot $color={STATE_COLORS[state]} aria-hidden /> {service.name}
                  </h3>
                  <Endpoint>{service.endpoint}</Endpoint>
                  <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
                    <StateBadge state={state} />
                    <Button
                      $variant="outline"
                      onClick={() => void runTest(service.id)}
                      disabled={!canOperate || running || pending.has(service.id)}
                    >
                      {pending.has(service.id) && !running ? 'Testing…' : 'Test'}
                    </Button>
                  </div>
                </Card>
              );
            })}
          </ServiceGrid>
          {!isLoading && services.length === 0 ? <Muted>No services yet.</Muted> : null}
          <Card style={{ marginTop: 16 }} aria-label="Real-time Test Results">
            <h3 style={{ margin: '0 0 8px', fontSize: 16 }}>Real-time Test Results</h3>
            {results.length ? (
              <Results aria-label="Latest test results" tabIndex={0}>
                {results.map((result, index) => (
                  <ResultRow key={`${result.at}-${result.serviceId}-${index}`} result={result} services={allServices} />
                ))}
              </Results>
            ) : (
              <Muted>No test results yet. Click "Test" on any service to begin.</Muted>
            )}
          </Card>
        </div>
        <Card aria-label="How to Test">
          <h3 style={{ margin: '0 0 8px', fontSize: 16 }}>How to Test</h3>
          <ol style={{ paddingLeft: 20, margin: 0, display: 'grid', gap: 8, fontSize: 14 }}>
            {GUIDE.map(([title, text]) => (
              <li key={title}>
                <strong>{title}</strong>: {text}
              </li>
            ))}
          </ol>
          <h4 style={{ margin: '16px 0 6px' }}>Quick tips</h4>
          <ul style={{ paddingLeft: 20, margin: 0, fontSize: 14, display: 'grid', gap: 4 }}>
            {TIPS.map((tip) => (
              <li key={tip}>{tip}</li>
            ))}
          </ul>
        </Card>
      </Columns>
    </Section>
  );
}
