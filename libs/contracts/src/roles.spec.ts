import { hasPermission, PERMISSIONS, ROLE_DEFAULT_PERMISSIONS, roleLabel, ROLES } from './roles';

describe('roles and permissions', () => {
  it('defines the four roles and the fourteen assignable permissions of the spec', () => {
    expect(ROLES).toEqual(['viewer', 'operator', 'admin', 'super_admin']);
    expect(PERMISSIONS).toHaveLength(14);
    expect(new Set(PERMISSIONS).size).toBe(14);
  });

  it('gives each role its default permissions', () => {
    expect(ROLE_DEFAULT_PERMISSIONS.viewer).toEqual(['dashboard_view', 'circuit_breaker_view']);
    expect(ROLE_DEFAULT_PERMISSIONS.operator).toContain('metrics_view');
    expect(ROLE_DEFAULT_PERMISSIONS.admin).toContain('domain_management');
    expect(ROLE_DEFAULT_PERMISSIONS.admin).not.toContain('user_management');
    expect(ROLE_DEFAULT_PERMISSIONS.super_admin).toEqual(PERMISSIONS);
  });

  it('labels known roles, shows an unknown role raw, and falls back to admin when there is none', () => {
    expect(roleLabel('super_admin')).toBe('Super Administrator');
    expect(roleLabel('viewer')).toBe('Viewer');
    expect(roleLabel('auditor')).toBe('auditor');
    expect(roleLabel(undefined)).toBe('admin');
    expect(roleLabel('')).toBe('admin');
  });

  it('grants super_admin everything and others only what their list names', () => {
    expect(hasPermission({ role: 'super_admin', permissions: [] }, 'user_management')).toBe(true);
    expect(hasPermission({ role: 'viewer', permissions: ['user_management'] }, 'user_management')).toBe(true);
    expect(hasPermission({ role: 'admin', permissions: ['dashboard_view'] }, 'user_management')).toBe(false);
    expect(hasPermission(null, 'dashboard_view')).toBe(false);
  });
});
