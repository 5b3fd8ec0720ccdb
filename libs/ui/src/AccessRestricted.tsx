import { Card, Muted } from './Card';
import { SectionTitle } from './Table';

/** Shown instead of a screen to an account without the permission it needs; the screen makes no call meanwhile. */
export function AccessRestricted({ message }: { message: string }) {
  return (
    <Card aria-labelledby="access-restricted-title">
      <SectionTitle id="access-restricted-title">Access Restricted</SectionTitle>
      <Muted>{message}</Muted>
    </Card>
  );
}
