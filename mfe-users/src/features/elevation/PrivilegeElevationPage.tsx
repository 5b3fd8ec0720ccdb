import { PageHeader } from '@cbh/ui';

export function PrivilegeElevationPage() {
  return <PageHeader title="Privilege Elevation" description="Verify your identity to gain super admin access." />;
}
