import styled from 'styled-components';
import { stateOf } from '@cbh/api-client';
import type { BreakerConfigView, BreakerStats, ServiceView } from '@cbh/contracts';
import { Card, Muted, StateBadge, theme } from '@cbh/ui';
import { Section } from './Section';

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 14px;
  th,
  td {
    text-align: left;
    padding: 8px;
    border-bottom: 1px solid ${theme.colors.border};
  }
  th {
    color: ${theme.colors.muted};
    font-weight: 500;
  }
`;

export interface MicroserviceOverviewProps {
  services: ServiceView[] | undefined;
  breakers: BreakerConfigView[] | undefined;
  stats: BreakerStats[] | undefined;
}

/** Every service with the state of its breaker, its configured failure rate and response time. */
export function MicroserviceOverview({ services, breakers, stats }: MicroserviceOverviewProps) {
  return (
    <Section id="microservices" title="Microservice Status" intro="Each service and the breaker that protects it.">
      <Card style={{ overflowX: 'auto' }}>
        {services?.length ? (
          <Table>
            <thead>
              <tr>
                <th scope="col">Service</th>
                <th scope="col">Breaker</th>
                <th scope="col">State</th>
                <th scope="col">Failure rate</th>
                <th scope="col">Avg response</th>
              </tr>
            </thead>
            <tbody>
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
            </tbody>
          </Table>
        ) : (
          <Muted>{services ? 'No services yet.' : 'Loading services…'}</Muted>
        )}
      </Card>
    </Section>
  );
}
