import { ForbiddenException } from '@nestjs/common';
import { hasPermission, type Permission } from '@cbh/contracts';
import type { AppRequest } from './session-user';

/**
 * A route that acts on items of several kinds (bulk actions, a configuration import) asks each item's own permission
 * here, as that item's own route would (access.guard), in the same words: "Requires the <permission> permission",
 * after the item's place where there is one, and before what the permission is for where that helps.
 */
export function requirePermission(req: AppRequest, permission: Permission, { place, purpose }: { place?: string; purpose?: string } = {}) {
  if (hasPermission(req.user, permission)) return;
  throw new ForbiddenException(`${place ? `${place}: ` : ''}Requires the ${permission} permission${purpose ? ` ${purpose}` : ''}`);
}
