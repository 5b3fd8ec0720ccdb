import styled from 'styled-components';
import { useGetComponentsOfBreakerQuery } from '@cbh/api-client';
import { statusPagePath } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Card, Muted, SectionTitle, theme } from '@cbh/ui';

const Offer = styled(Card)`
  border-color: ${theme.colors.open};
  ul {
    margin: 8px 0 0;
    padding-left: 20px;
  }
  li {
    overflow-wrap: anywhere;
  }
  a {
    color: ${theme.colors.primary};
  }
`;

/** The address of a status page's incident form with one component ticked. */
export const incidentFormPath = (pageId: number, componentId: number) => `${statusPagePath(pageId)}?incident=new&components=${componentId}`;

/**
 * Shown while the breaker is open, to those who may manage status pages: the status page components that include it,
 * each a link to open an incident on it. Nothing when no component includes it.
 */
export function IncidentOffer({ breakerId }: { breakerId: number }) {
  const { data: components } = useGetComponentsOfBreakerQuery(breakerId);
  if (!components?.length) return null;
  return (
    <Offer aria-labelledby="incident-offer-title">
      <SectionTitle id="incident-offer-title">Open an incident</SectionTitle>
      <Muted>This breaker is open. Tell the people who depend on it, on the status pages that show it:</Muted>
      <ul>
        {components.map((component) => (
          <li key={`${component.pageId}-${component.componentId}`}>
            <Link to={incidentFormPath(component.pageId, component.componentId)}>
              {component.componentName} on {component.pageTitle}
            </Link>
          </li>
        ))}
      </ul>
    </Offer>
  );
}
