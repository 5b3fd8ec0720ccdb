import { hasPermission, PERMISSIONS, type Permission, type ServiceAccountView } from '@cbh/contracts';

/** The permissions a service account holds (a super_admin one holds all): the most one of its tokens may carry. */
export function heldBy(account: Pick<ServiceAccountView, 'role' | 'permissions'>): Permission[] {
  return PERMISSIONS.filter((permission) => hasPermission(account, permission));
}
