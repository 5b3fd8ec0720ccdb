import styled from 'styled-components';
import { ROUTES } from '@cbh/contracts';
import { Link } from '@cbh/router';
import {
  isFailing,
  isSlow,
  MICROSERVICES,
  MicroservicesSimulation,
  serviceAlerts,
  type Microservice,
  type MicroservicesState,
} from '@cbh/simulations';
import { Badge, Button, Card, CardGrid, DataTable, Muted, StateBadge, theme, VisuallyHidden, When } from '@cbh/ui';
import { Controls, Entry, EntryList } from '../shared/demo-styles';
import { PatternPage } from '../shared/PatternPage';
import { useSimulation } from '../shared/useSimulation';
import { ServiceMap } from './ServiceMap';

const HEALTH_COLORS = { healthy: theme.colors.success, degraded: theme.colors.yellow, down: theme.colors.destructive } as const;
const STATUS_COLORS = { 200: theme.colors.success, 404: theme.colors.yellow, 500: theme.colors.destructive } as const;

/** Response time above 200 ms in yellow, error rate above 3 % in red (§9). */
const Figure = styled.span<{ $tone: 'slow' | 'failing' | 'normal' }>`
  font-weight: ${({ $tone }) => ($tone === 'normal' ? 400 : 600)};
  color: ${({ $tone }) => ($tone === 'slow' ? '#854d0e' : $tone === 'failing' ? theme.colors.destructive : 'inherit')};
`;

function ServiceFigures({ service }: { service: Microservice }) {
  return (
    <>
      <Figure $tone={isSlow(service) ? 'slow' : 'normal'} data-testid="response-time">
        {service.responseTime} ms
      </Figure>{' '}
      ·{' '}
      <Figure $tone={isFailing(service) ? 'failing' : 'normal'} data-testid="error-rate">
        {service.errorRate}% errors
      </Figure>
    </>
  );
}

function Services({ state, engine }: { state: MicroservicesState; engine: MicroservicesSimulation }) {
  return (
    <CardGrid>
      {state.services.map((service) => (
        <Card key={service.id} aria-label={service.name}>
          <Controls style={{ marginBottom: 8 }}>
            <strong>{service.name}</strong>
            <Badge $color={HEALTH_COLORS[service.status]}>{service.status}</Badge>
            <Muted as="span">v{service.version}</Muted>
          </Controls>
          <Muted>
            <span data-testid="instances">{service.instances}</span> instance(s) · <ServiceFigures service={service} /> · CPU {service.cpu}%
            · memory {service.memory}%
          </Muted>
          <Controls style={{ marginTop: 12, marginBottom: 0 }}>
            <Button $variant="outline" onClick={() => engine.scale(service.id, 1)}>
              Scale Up<VisuallyHidden> {service.name}</VisuallyHidden>
            </Button>
            <Button
              $variant="outline"
              disabled={service.instances <= MICROSERVICES.minInstances}
              onClick={() => engine.scale(service.id, -1)}
            >
              Scale Down<VisuallyHidden> {service.name}</VisuallyHidden>
            </Button>
            <Button $variant="outline" onClick={() => engine.restart(service.id)}>
              Restart<VisuallyHidden> {service.name}</VisuallyHidden>
            </Button>
          </Controls>
        </Card>
      ))}
    </CardGrid>
  );
}

function Breakers({ state, engine }: { state: MicroservicesState; engine: MicroservicesSimulation }) {
  return (
    <>
      <Muted style={{ marginBottom: 12 }}>
        Each service runs the same breaker state machine as the{' '}
        <Link to={`${ROUTES.home.path}#learn`}>breaker lesson on the learning page</Link>: Toggle trips it with failed calls (OPEN), lets
        its open period pass (HALF_OPEN), then resets it (CLOSED).
      </Muted>
      <DataTable label="Circuit breakers" columns={['Service', 'Error rate', 'State', 'Action']} minWidth={520}>
        {state.services.map((service) => (
          <tr key={service.id}>
            <td>{service.name}</td>
            <td>
              <Figure $tone={isFailing(service) ? 'failing' : 'normal'}>{service.errorRate}%</Figure>
            </td>
            <td data-testid={`breaker-${service.id}`}>
              <StateBadge state={service.breaker} />
            </td>
            <td>
              <Button $variant="outline" onClick={() => engine.toggleBreaker(service.id)}>
                Toggle Circuit Breaker<VisuallyHidden> of {service.name}</VisuallyHidden>
              </Button>
            </td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}

function Monitoring({ state }: { state: MicroservicesState }) {
  const alerts = serviceAlerts(state.services);
  return (
    <>
      <DataTable label="Service health" columns={['Service', 'Health', 'Response', 'Errors', 'CPU', 'Memory']} minWidth={560}>
        {state.services.map((service) => (
          <tr key={service.id}>
            <td>{service.name}</td>
            <td>
              <Badge $color={HEALTH_COLORS[service.status]}>{service.status}</Badge>
            </td>
            <td>
              <Figure $tone={isSlow(service) ? 'slow' : 'normal'}>{service.responseTime} ms</Figure>
            </td>
            <td>
              <Figure $tone={isFailing(service) ? 'failing' : 'normal'}>{service.errorRate}%</Figure>
            </td>
            <td>{service.cpu}%</td>
            <td>{service.memory}%</td>
          </tr>
        ))}
      </DataTable>
      <h2 style={{ fontSize: 16 }}>Recent alerts</h2>
      {alerts.length === 0 ? (
        <Muted>No alerts: every service is healthy and under 2 % errors.</Muted>
      ) : (
        <EntryList aria-label="Recent alerts">
          {alerts.map((alert) => (
            <Entry key={alert.message}>{alert.message}</Entry>
          ))}
        </EntryList>
      )}
    </>
  );
}

export function MicroservicesPage() {
  const [state, engine] = useSimulation(
    () => new MicroservicesSimulation(),
    (ms) => ms.start(),
  );
  const healthy = state.services.filter((service) => service.status === 'healthy').length;
  const instances = state.services.reduce((sum, service) => sum + service.instances, 0);
  const average = Math.round(state.services.reduce((sum, service) => sum + service.responseTime, 0) / state.services.length);
  return (
    <PatternPage
      title="Microservices"
      intro={
        <>
          Microservices split a system into small services that are deployed, scaled and failed independently, each owning its data. Use
          them when teams must ship parts of a large system on their own schedules; they cost network calls that can fail or stall (hence a
          circuit breaker on each), distributed data and the operations to run many services.
        </>
      }
      sectionsLabel="Microservices sections"
      figures={{
        'Total services': state.services.length,
        'Healthy services': healthy,
        'Total instances': instances,
        'Average response time': `${average} ms`,
      }}
      overview={<ServiceMap services={state.services} />}
      sections={[
        { value: 'services', label: 'Services', content: <Services state={state} engine={engine} /> },
        {
          value: 'communication',
          label: 'Communication',
          content:
            state.calls.length === 0 ? (
              <Muted>No calls yet: one is made every 2 seconds.</Muted>
            ) : (
              <EntryList aria-label="Live calls">
                {state.calls.slice(0, MICROSERVICES.callsShown).map((call) => (
                  <Entry key={call.id}>
                    <strong>
                      {call.from} → {call.to}
                    </strong>
                    <code>
                      {call.method} {call.endpoint}
                    </code>
                    <Badge $color={STATUS_COLORS[call.status]}>{call.status}</Badge>
                    <span>{call.responseTime} ms</span>
                    <Muted as="span">
                      <When at={call.timestamp} />
                    </Muted>
                  </Entry>
                ))}
              </EntryList>
            ),
        },
        { value: 'breakers', label: 'Circuit Breakers', content: <Breakers state={state} engine={engine} /> },
        { value: 'monitoring', label: 'Monitoring', content: <Monitoring state={state} /> },
      ]}
    />
  );
}
