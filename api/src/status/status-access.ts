import { ForbiddenException } from '@nestjs/common';
import { hasPermission } from '@cbh/contracts';
import type { AppRequest } from '../identity';

/**
 * A component that shows a domain's checks publishes what only domain_management holders may read: making or
 * changing one that names domains needs that permission too (as routing domain alerts does). A null request is the
 * hub's own (configuration as code judges its own access).
 */
export function mayPublishDomains(req: AppRequest | null, components: readonly { domains: readonly unknown[] }[]) {
  if (req && components.some((component) => component.domains.length > 0) && !hasPermission(req.user, 'domain_management')) {
    throw new ForbiddenException('Requires the domain_management permission to show domains on a status page');
  }
}
