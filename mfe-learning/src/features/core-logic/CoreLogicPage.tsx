import { Badge, PageHeader } from '@cbh/ui';

export function CoreLogicPage() {
  return (
    <PageHeader
      title="Core Logic Layer (Brain)"
      description="The architecture layers behind the platform and how a request flows through them."
    >
      <Badge>Super Admin Only</Badge>
    </PageHeader>
  );
}
