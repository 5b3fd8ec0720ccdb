import { useId } from 'react';
import { Link } from '@cbh/router';
import { Card, Muted, SectionTitle } from '@cbh/ui';

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
