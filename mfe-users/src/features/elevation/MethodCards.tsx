import styled from 'styled-components';
import { Badge, Button, Card, Muted } from '@cbh/ui';
import { METHOD_CARDS, SECURITY_LEVELS, type ElevationMethod } from './elevation-methods';

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(220px, 1fr));
  gap: 16px;
`;

const MethodCard = styled(Card)`
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  gap: 10px;
  h2 {
    margin: 0;
    font-size: 18px;
  }
  p {
    flex: 1;
  }
`;

export function MethodCards({ onChoose }: { onChoose: (method: ElevationMethod) => void }) {
  return (
    <Grid>
      {METHOD_CARDS.map((method) => {
        const level = SECURITY_LEVELS[method.securityLevel];
        return (
          <MethodCard key={method.id} aria-labelledby={`elevation-method-${method.id}`} data-testid="method-card">
            <h2 id={`elevation-method-${method.id}`}>{method.name}</h2>
            <Badge $color={level.color}>{level.label}</Badge>
            <Muted>{method.description}</Muted>
            <Button type="button" onClick={() => onChoose(method.id)}>
              Use {method.name}
            </Button>
          </MethodCard>
        );
      })}
    </Grid>
  );
}
