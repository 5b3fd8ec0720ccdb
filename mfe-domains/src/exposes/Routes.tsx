import { RoutePages } from '@cbh/ui';
import { DomainManagementPage } from '../features/domains/DomainManagementPage';

const pages = [{ path: '/domains', Component: DomainManagementPage }];

export default function DomainsRoutes() {
  return <RoutePages pages={pages} />;
}
