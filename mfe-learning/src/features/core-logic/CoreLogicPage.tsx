import { useEffect } from 'react';
import styled from 'styled-components';
import { useGetAuthUserQuery } from '@cbh/api-client';
import { canOpen, PATTERN_DEMOS, patternPath, ROUTES } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Badge, Card, Muted, PageHeader, theme } from '@cbh/ui';
import { ARCHITECTURE_LAYERS, REQUEST_FLOW } from './layers';

const Grid = styled.div<{ $min: number }>`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(${({ $min }) => $min}px, 1fr));
  gap: 12px;
  margin-bottom: 24px;
  h3 {
    margin: 0 0 4px;
    font-size: 16px;
  }
`;

const Chips = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
  margin-top: 10px;
  span {
    padding: 2px 8px;
    border-radius: 999px;
    font-size: 12px;
    background: #eff6ff;
    color: ${theme.colors.primary};
  }
`;

const PatternLink = styled(Link)`
  text-decoration: none;
  color: inherit;
  &:hover section {
    border-color: ${theme.colors.primary};
  }
`;

const SectionTitle = styled.h2`
  margin: 0 0 12px;
  font-size: 20px;
`;

export function CoreLogicPage() {
  const { data: user } = useGetAuthUserQuery();
  useEffect(() => {
    // The auth state has loaded before any page renders (the shell waits): null means signed out.
    if (user === null) window.location.assign('/api/login');
  }, [user]);

  if (!user) return null;
  if (!canOpen(user, ROUTES.coreLogic)) {
    return (
      <Card>
        <PageHeader title="Core Logic Layer (Brain)" description="This overview is for super admins only.">
          <Badge>Super Admin Only</Badge>
        </PageHeader>
      </Card>
    );
  }

  return (
    <>
      <PageHeader
        title="Core Logic Layer (Brain)"
        description="The architecture layers behind the platform and how a request flows through them."
      >
        <Badge>Super Admin Only</Badge>
      </PageHeader>

      <Grid $min={240} aria-label="Architecture layers">
        {ARCHITECTURE_LAYERS.map((layer) => (
          <Card key={layer.component} aria-label={layer.component}>
            <h3>{layer.component}</h3>
            <Muted>{layer.purpose}</Muted>
            <Chips>
              {layer.examples.map((example) => (
                <span key={example}>{example}</span>
              ))}
            </Chips>
          </Card>
        ))}
      </Grid>

      <SectionTitle>How a request flows</SectionTitle>
      <Grid $min={200}>
        {REQUEST_FLOW.map((step, index) => (
          <Card key={step.step}>
            <h3>
              {index + 1}. {step.step}
            </h3>
            <Muted>{step.text}</Muted>
          </Card>
        ))}
      </Grid>

      <SectionTitle>Enterprise Integration</SectionTitle>
      <Muted style={{ marginBottom: 12 }}>The same layers carry the enterprise patterns below; each opens a live simulation.</Muted>
      <Grid $min={240}>
        {PATTERN_DEMOS.map((pattern) => (
          <PatternLink key={pattern.slug} to={patternPath(pattern.slug)}>
            <Card>
              <h3>{pattern.title}</h3>
              <Muted>{pattern.summary}</Muted>
            </Card>
          </PatternLink>
        ))}
      </Grid>
    </>
  );
}
