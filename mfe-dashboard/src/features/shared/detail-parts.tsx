import { useId } from 'react';
import styled from 'styled-components';
import { Link } from '@cbh/router';
import { Card, Muted, SectionTitle } from '@cbh/ui';

// grid children take min-width 0, so that a wide table scrolls in its own box rather than widening a phone's page
/** A record's page's cards, one under the other. */
export const DetailStack = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 20px;
`;

/** What a record's page says at an address that names none (deleted, or never there), with the way back to the list. */
export function NotFoundCard({ title, text, back }: { title: string; text: string; back: { to: string; label: string } }) {
  const id = useId();
  return (
    <Card aria-labelledby={id}>
      <SectionTitle id={id}>{title}</SectionTitle>
      <Muted>
        {text} <Link to={back.to}>{back.label}</Link>.
      </Muted>
    </Card>
  );
}
