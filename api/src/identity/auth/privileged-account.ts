import { holdsSensitivePermission } from '@cbh/contracts';
import type { AppConfig } from '../../platform';
import { isElevationAccount } from './access.guard';

const PRIVILEGED_ROLES: readonly string[] = ['super_admin', 'admin'];

/**
 * Accounts that sign in with their password only, never through an organization account: super admins, admins,
 * any account holding a sensitive permission whatever its role (a viewer given user_management is as privileged as
 * a user manager), the elevation account (it can make itself super_admin) and the bootstrap super admin's address
 * (ADMIN_EMAIL, whatever its role now). A provider vouching for an e-mail address is weaker proof than the
 * password, so such accounts are neither created, linked nor signed in through one.
 */
export function isPrivilegedAccount(config: AppConfig, account: { email: string; role: string; permissions: readonly string[] }): boolean {
  return (
    PRIVILEGED_ROLES.includes(account.role) ||
    holdsSensitivePermission(account) ||
    isElevationAccount(config, account) ||
    account.email.toLowerCase() === config.ADMIN_EMAIL.toLowerCase()
  );
}
