import styled from 'styled-components';
import { sloPath, type SloView } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Card, SectionTitle } from '@cbh/ui';
import { BudgetLeft, SloStatusBadge } from '../slos/SloFigures';

const List = styled.ul`
  list-style: none;
  margin: 12px 0 0;
  padding: 0;
  display: grid;
  gap: 12px;
  font-size: 14px;
  li {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    align-items: center;
    gap: 4px 12px;
  }
  a {
    overflow-wrap: anywhere;
    font-weight: 600;
  }
`;

/** The SLOs this breaker's calls count towards (by name or by its service): how each stands, and a link to its page. */
export function BreakerSlosCard({ slos }: { slos: readonly SloView[] }) {
  return (
    <Card aria-labelledby="breaker-slos-title">
      <SectionTitle id="breaker-slos-title">SLOs it feeds</SectionTitle>
      <List aria-label="SLOs it feeds">
        {slos.map((slo) => (
          <li key={slo.id} data-testid={`breaker-slo-${slo.id}`}>
            <Link to={sloPath(slo.id)}>{slo.name}</Link>
            <SloStatusBadge status={slo.status} />
            <BudgetLeft remaining={slo.errorBudgetRemaining} status={slo.status} />
          </li>
        ))}
      </List>
    </Card>
  );
}
