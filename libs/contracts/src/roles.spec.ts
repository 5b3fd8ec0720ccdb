import { accountChangeRefusal, hasPermission, PERMISSIONS, ROLE_DEFAULT_PERMISSIONS, roleLabel, ROLES } from './roles';

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

describe('accountChangeRefusal', () => {
  const superAdmin = { role: 'super_admin', permissions: [] };
  const manager = { role: 'admin', permissions: [...ROLE_DEFAULT_PERMISSIONS.admin, 'user_management'] };

  it('lets a super_admin change anyone, a super_admin included', () => {
    expect(accountChangeRefusal(superAdmin, { role: 'super_admin', permissions: [...PERMISSIONS] })).toBeNull();
    expect(accountChangeRefusal(superAdmin, { role: 'viewer', permissions: ['system_admin'] })).toBeNull();
  });

  it('keeps a super_admin from anyone else, even one holding every permission', () => {
    const holdsAll = { role: 'admin', permissions: [...PERMISSIONS] };
    expect(accountChangeRefusal(holdsAll, { role: 'super_admin', permissions: [] })).toBe(
      'Only a super_admin can change or delete a super_admin',
    );
  });

  it('lets a user manager change an account holding what they hold or less, naming what they lack otherwise', () => {
    expect(accountChangeRefusal(manager, manager)).toBeNull();
    expect(accountChangeRefusal(manager, { role: 'operator', permissions: [...ROLE_DEFAULT_PERMISSIONS.operator] })).toBeNull();
    expect(accountChangeRefusal(manager, { role: 'viewer', permissions: ['audit_access', 'dashboard_view', 'system_admin'] })).toBe(
      'You cannot change or delete an account holding system_admin, audit_access, which you do not hold',
    );
  });
});
