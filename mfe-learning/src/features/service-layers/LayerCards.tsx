import styled from 'styled-components';
import { Card, Muted, theme } from '@cbh/ui';

export interface LayerSection {
  title: string;
  description: string;
  items: { name: string; detail: string }[];
}

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(300px, 1fr));
  gap: 16px;
  h2 {
    margin: 0 0 6px;
    font-size: 18px;
  }
  ul {
    margin: 12px 0 0;
    padding: 0;
    list-style: none;
  }
  li {
    padding: 8px 0;
    border-top: 1px solid ${theme.colors.border};
    font-size: 14px;
  }
`;

/** The static cards of the service-layer pages. */
export function LayerCards({ sections }: { sections: LayerSection[] }) {
  return (
    <Grid>
      {sections.map((section) => (
        <Card key={section.title} aria-label={section.title}>
          <h2>{section.title}</h2>
          <Muted>{section.description}</Muted>
          <ul>
            {section.items.map((item) => (
              <li key={item.name}>
                <strong>{item.name}</strong> — {item.detail}
              </li>
            ))}
          </ul>
        </Card>
      ))}
    </Grid>
  );
}
