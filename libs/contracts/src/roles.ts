export const PERMISSIONS = [
  'dashboard_view',
  'circuit_breaker_view',
  'circuit_breaker_operate',
  'circuit_breaker_admin',
  'domain_management',
  'metrics_view',
  'user_management',
  'system_admin',
  'audit_access',
  'organization_admin',
  'api_access',
  'export_data',
  'import_data',
  'bulk_operations',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Each permission's name for people; the key (`dashboard_view`) stays what the API, tokens and files speak. */
export const PERMISSION_LABELS: Record<Permission, string> = {
  dashboard_view: 'View dashboard',
  circuit_breaker_view: 'View circuit breakers',
  circuit_breaker_operate: 'Operate circuit breakers',
  circuit_breaker_admin: 'Administer circuit breakers',
  domain_management: 'Manage domains',
  metrics_view: 'View metrics',
  user_management: 'Manage users',
  system_admin: 'Administer the system',
  audit_access: 'Read the audit log',
  organization_admin: 'Administer the organisation',
  api_access: 'Use the API',
  export_data: 'Export data',
  import_data: 'Import data',
  bulk_operations: 'Bulk operations',
};

/** A permission's name for people, its key where it is not one the hub knows. */
export function permissionLabel(permission: string): string {
  return (PERMISSION_LABELS as Record<string, string>)[permission] ?? permission;
}

/** The permissions matrix on the user screen shows this many of the assignable list. */
export const PERMISSION_MATRIX_SIZE = 8;

export const ROLES = ['viewer', 'operator', 'admin', 'super_admin'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  viewer: 'Viewer',
  operator: 'Operator',
  admin: 'Administrator',
  super_admin: 'Super Administrator',
};

/** What each role is for, as the Role Management tab describes it. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  viewer: 'Reads the dashboard and the circuit breakers.',
  operator: 'Runs the breakers day to day: load tests, manual control and metrics.',
  admin: 'Configures breakers and domains on top of what operators do.',
  super_admin: 'Every permission, including user management.',
};

/** Who may read and manage users: super admins and holders of user_management. */
export function canManageUsers(user: { role: string; permissions: readonly string[] } | null | undefined): boolean {
  return hasPermission(user, 'user_management');
}

/** Each role holds what the role below it holds, and more; the lists keep the canonical order of PERMISSIONS. */
function grants(held: readonly Permission[], ...more: Permission[]): readonly Permission[] {
  return PERMISSIONS.filter((permission) => held.includes(permission) || more.includes(permission));
}
const VIEWER_PERMISSIONS = grants([], 'dashboard_view', 'circuit_breaker_view');
const OPERATOR_PERMISSIONS = grants(VIEWER_PERMISSIONS, 'circuit_breaker_operate', 'metrics_view');

export const ROLE_DEFAULT_PERMISSIONS: Record<Role, readonly Permission[]> = {
  viewer: VIEWER_PERMISSIONS,
  operator: OPERATOR_PERMISSIONS,
  admin: grants(OPERATOR_PERMISSIONS, 'circuit_breaker_admin', 'domain_management'),
  super_admin: PERMISSIONS,
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The badge label for a role: its label when known, its raw name otherwise, 'admin' when absent. */
export function roleLabel(role: string | null | undefined): string {
  if (!role) return 'admin';
  return isRole(role) ? ROLE_LABELS[role] : role;
}

/** super_admin holds every permission; anyone else holds what their list names. */
export function hasPermission(user: { role: string; permissions: readonly string[] } | null | undefined, permission: Permission): boolean {
  if (!user) return false;
  return user.role === 'super_admin' || user.permissions.includes(permission);
}

/**
 * The permissions that reach past one's own day-to-day work on breakers and domains: who holds what
 * (user_management), the code every visitor runs and how long history is kept (system_admin), the sign-in policy
 * (organization_admin), everyone's trail with their e-mail addresses (audit_access), and every item at once
 * (export_data, import_data, bulk_operations). An account holding any of them is privileged: it signs in with its
 * password only, never through an organization account (isPrivilegedAccount in the API).
 */
export const SENSITIVE_PERMISSIONS = [
  'user_management',
  'system_admin',
  'organization_admin',
  'audit_access',
  'export_data',
  'import_data',
  'bulk_operations',
] as const satisfies readonly Permission[];

/** Whether an account holds any of SENSITIVE_PERMISSIONS (a super_admin holds them all). */
export function holdsSensitivePermission(user: { role: string; permissions: readonly string[] }): boolean {
  return SENSITIVE_PERMISSIONS.some((permission) => hasPermission(user, permission));
}

/** Every permission an account (or a service account) holds, in the canonical order: a super_admin holds them all. */
export function heldPermissions(user: { role: string; permissions: readonly string[] }): Permission[] {
  return PERMISSIONS.filter((permission) => hasPermission(user, permission));
}

/**
 * Why `actor` may not change the role, status or permissions of `target`, or delete it; null when they may.
 * Only a super_admin touches a super_admin, and nobody touches an account holding a permission they lack:
 * otherwise a user manager could disable or demote the accounts that oversee them.
 */
export function accountChangeRefusal(
  actor: { role: string; permissions: readonly string[] },
  target: { role: string; permissions: readonly string[] },
): string | null {
  if (target.role === 'super_admin' && actor.role !== 'super_admin') return 'Only a super_admin can change or delete a super_admin';
  const beyond = PERMISSIONS.filter((permission) => hasPermission(target, permission) && !hasPermission(actor, permission));
  if (beyond.length) return `You cannot change or delete an account holding ${beyond.join(', ')}, which you do not hold`;
  return null;
}

/** The ways an account proves itself when it elevates to super_admin. */
export const ELEVATION_METHODS = ['email_verification', 'master_key', 'time_based_otp'] as const;
