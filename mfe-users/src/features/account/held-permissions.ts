import { hasPermission, PERMISSIONS, type AuthUser, type Permission } from '@cbh/contracts';

/** What the person holds, in the canonical order: a super_admin holds every permission whatever the list says. */
export function heldPermissions(user: AuthUser): Permission[] {
  return PERMISSIONS.filter((permission) => hasPermission(user, permission));
}
