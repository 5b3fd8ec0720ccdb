import { Card, Muted, PageTitle } from '@cbh/ui';

export function NotFoundPage() {
  return (
    <Card>
      <PageTitle>404 Page Not Found</PageTitle>
      <Muted>Did you forget to add the page to the router?</Muted>
    </Card>
  );
}
