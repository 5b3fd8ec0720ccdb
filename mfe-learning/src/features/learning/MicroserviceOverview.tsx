import { stateOf } from '@cbh/api-client';
import type { BreakerConfigView, BreakerStats, ServiceView } from '@cbh/contracts';
import { Card, DataTable, Muted, StateBadge } from '@cbh/ui';
import { Section } from './Section';

const COLUMNS = ['Service', 'Breaker', 'State', 'Failure rate', 'Avg response'];

export interface MicroserviceOverviewProps {
  services: ServiceView[] | undefined;
  breakers: BreakerConfigView[] | undefined;
  stats: BreakerStats[] | undefined;
}

/** Every service with the state of its breaker, its configured failure rate and response time. */
export function MicroserviceOverview({ services, breakers, stats }: MicroserviceOverviewProps) {
  return (
    <Section id="microservices" title="Microservice Status" intro="Each service and the breaker that protects it.">
      <Card>
        {services?.length ? (
          // a phone scrolls the table inside its own frame, which a keyboard can scroll too
          <DataTable label="Microservices" columns={COLUMNS} minWidth={520}>
            {services.map((service) => (
              <tr key={service.id}>
                <td>{service.name}</td>
                <td>{breakers?.find((breaker) => breaker.id === service.circuitBreakerConfigId)?.name ?? 'none'}</td>
                <td>
                  <StateBadge state={stateOf(stats, service.circuitBreakerConfigId)} />
                </td>
                <td>{service.failureRate}%</td>
                <td>{service.averageResponseTime} ms</td>
              </tr>
            ))}
          </DataTable>
        ) : (
          <Muted>{services ? 'No services yet.' : 'Loading services…'}</Muted>
        )}
      </Card>
    </Section>
  );
}
