import styled from 'styled-components';
import { apiErrorMessage, useGetServicesQuery } from '@cbh/api-client';
import { Card, Muted, SectionTitle, theme } from '@cbh/ui';

const List = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  display: grid;
  gap: 8px;
  li {
    display: grid;
    gap: 2px;
    overflow-wrap: anywhere;
  }
  code {
    font-size: 13px;
    color: ${theme.colors.muted};
  }
`;

/** The downstream services whose calls go through this breaker. */
export function BreakerServices({ configId }: { configId: number }) {
  const { data, isError, error } = useGetServicesQuery();
  const services = data?.filter((service) => service.circuitBreakerConfigId === configId);
  return (
    <Card aria-labelledby="services-title">
      <SectionTitle id="services-title">Services using this breaker</SectionTitle>
      {!services ? (
        isError ? (
          <Muted role="alert">The services could not be loaded. {apiErrorMessage(error) ?? ''}</Muted>
        ) : (
          <Muted role="status">Loading…</Muted>
        )
      ) : services.length === 0 ? (
        <Muted>No service calls through this breaker.</Muted>
      ) : (
        <List>
          {services.map((service) => (
            <li key={service.id}>
              <strong>{service.name}</strong>
              <code>{service.endpoint}</code>
            </li>
          ))}
        </List>
      )}
    </Card>
  );
}
