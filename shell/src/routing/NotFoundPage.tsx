import { Card, PageHeader } from '@cbh/ui';

export function NotFoundPage() {
  return (
    <Card>
      <PageHeader title="404 Page Not Found" description="Did you forget to add the page to the router?" />
    </Card>
  );
}
