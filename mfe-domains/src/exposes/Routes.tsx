import { ROUTES } from '@cbh/contracts';
import { RoutePages } from '@cbh/router';
import { DomainManagementPage } from '../features/domains/DomainManagementPage';

export const pages = [{ path: ROUTES.domains.path, Component: DomainManagementPage }];

export default function DomainsRoutes() {
  return <RoutePages pages={pages} />;
}
