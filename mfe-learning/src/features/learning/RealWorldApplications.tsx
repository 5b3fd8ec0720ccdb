import styled from 'styled-components';
import { Badge, Card, Muted, theme } from '@cbh/ui';
import { COMPANIES, IMPLEMENTATION_PATTERNS, WHY_IT_MATTERS } from './real-world-content';
import { Grid, Section } from './Section';

const Chips = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
  margin-top: 8px;
`;
const Small = styled.p`
  margin: 8px 0 0;
  font-size: 13px;
`;
const Why = styled(Card)`
  margin-top: 16px;
  background: #eff6ff;
  border-color: ${theme.colors.primary};
`;

export function RealWorldApplications() {
  return (
    <Section id="real-world" title="Real-world Applications" intro="Where circuit breakers earn their keep in production.">
      <Grid $min={280}>
        {COMPANIES.map((company) => (
          <Card key={company.name} aria-label={company.name} data-testid="company-card">
            <h3>
              {company.name} <Badge $color={theme.colors.muted}>{company.services} services</Badge>
            </h3>
            <Muted style={{ fontSize: 13 }}>{company.industry}</Muted>
            <Small>{company.description}</Small>
            <Small>
              <strong>Use cases:</strong> {company.useCases.join(', ')}
            </Small>
            <Chips aria-label="Patterns">
              {company.patterns.map((pattern) => (
                <Badge key={pattern}>{pattern}</Badge>
              ))}
            </Chips>
          </Card>
        ))}
      </Grid>
      <h3 style={{ margin: '24px 0 12px' }}>Common Implementation Patterns</h3>
      <Grid $min={240}>
        {IMPLEMENTATION_PATTERNS.map((pattern) => (
          <Card key={pattern.name} aria-label={pattern.name}>
            <h3>{pattern.name}</h3>
            <Muted style={{ fontSize: 14 }}>{pattern.description}</Muted>
            <ul style={{ margin: '8px 0 0', paddingLeft: 20, fontSize: 14 }}>
              {pattern.benefits.map((benefit) => (
                <li key={benefit}>{benefit}</li>
              ))}
            </ul>
          </Card>
        ))}
      </Grid>
      <Why aria-label="Why Circuit Breakers Matter">
        <h3 style={{ margin: '0 0 12px' }}>Why Circuit Breakers Matter</h3>
        <Grid $min={220}>
          {WHY_IT_MATTERS.map((item) => (
            <div key={item.title}>
              <h4 style={{ margin: '0 0 4px' }}>{item.title}</h4>
              <p style={{ margin: 0, fontSize: 14 }}>{item.text}</p>
            </div>
          ))}
        </Grid>
      </Why>
    </Section>
  );
}
