import { randomUUID } from 'node:crypto';
import { hasPermission, ROLE_DEFAULT_PERMISSIONS, type Permission, type Role } from '@cbh/contracts';
import { DEMO_PASSWORD, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../test/test-api';

/**
 * The server-side policy of every API route: who may call it. A route missing here fails this test: a new
 * endpoint must declare who may call it, and say it here.
 */
const POLICY: Record<string, 'public' | 'signed-in' | 'elevation-account' | Permission> = {
  'GET /metrics': 'metrics_view',
  'GET /api/health': 'public',
  'GET /api/login': 'public',
  'POST /api/login': 'public',
  'GET /api/logout': 'public',
  'GET /api/login/callback': 'public',
  'GET /api/login/link': 'public',
  'GET /api/auth/user': 'signed-in',
  'GET /api/invitations/:token': 'public',
  'POST /api/invitations/:token': 'public',
  'GET /api/users': 'user_management',
  'GET /api/organizations': 'user_management',
  'POST /api/users/invite': 'user_management',
  'PATCH /api/users/:id': 'user_management',
  'PATCH /api/users/:id/status': 'user_management',
  'PATCH /api/users/:id/permissions': 'user_management',
  'DELETE /api/users/:id': 'user_management',
  'GET /api/audit': 'audit_access',
  'POST /api/auth/elevate-privileges': 'elevation-account',
  'GET /api/auth/get-otp': 'elevation-account',
  'GET /api/auth/elevate/verify/:token': 'public',
  'GET /api/circuit-breakers': 'circuit_breaker_view',
  'POST /api/circuit-breakers': 'circuit_breaker_admin',
  'PATCH /api/circuit-breakers/:id': 'circuit_breaker_admin',
  'DELETE /api/circuit-breakers/:id': 'circuit_breaker_admin',
  'POST /api/circuit-breakers/:id/force-open': 'circuit_breaker_operate',
  'POST /api/circuit-breakers/:id/force-closed': 'circuit_breaker_operate',
  'POST /api/circuit-breakers/:id/disable': 'circuit_breaker_operate',
  'POST /api/circuit-breakers/:id/reset': 'circuit_breaker_operate',
  'GET /api/circuit-breakers/:id/transitions': 'circuit_breaker_view',
  'GET /api/services': 'circuit_breaker_view',
  'POST /api/services': 'circuit_breaker_admin',
  'PATCH /api/services/:id': 'circuit_breaker_admin',
  'DELETE /api/services/:id': 'circuit_breaker_admin',
  'POST /api/services/:id/test': 'circuit_breaker_operate',
  'GET /api/chaos/:id': 'public',
  'GET /api/metrics/latest': 'circuit_breaker_view',
  'GET /api/dashboard/stats': 'dashboard_view',
  'GET /api/dashboard/activity': 'dashboard_view',
  'GET /api/test-sessions': 'circuit_breaker_view',
  'POST /api/test-sessions': 'circuit_breaker_operate',
  'POST /api/test-sessions/:id/stop': 'circuit_breaker_operate',
  'GET /api/domains': 'domain_management',
  'GET /api/domains/:id': 'domain_management',
  'GET /api/domain-summary': 'domain_management',
  'POST /api/domains': 'domain_management',
  'DELETE /api/domains/:id': 'domain_management',
  'POST /api/domains/:id/verify': 'domain_management',
  'GET /api/domain-verifications': 'domain_management',
  'GET /api/ssl-certificates': 'domain_management',
  'PATCH /api/ssl-certificates/:id': 'domain_management',
  'GET /api/dns-records': 'domain_management',
  'GET /api/subdomains': 'domain_management',
  'GET /api/domain-monitoring': 'domain_management',
  'GET /api/domain-alerts': 'domain_management',
  'POST /api/domain-alerts/:id/resolve': 'domain_management',
  'GET /api/docs': 'public',
  'GET /api/docs/init.js': 'public',
  'GET /api/docs/openapi.json': 'public',
  'GET /api/docs/assets/:file': 'public',
};

const ACCOUNTS: Record<Role, string> = {
  viewer: 'viewer@example.com',
  operator: 'operator@example.com',
  admin: 'admin@demo.example.com',
  super_admin: TEST_ADMIN.email,
};

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
});

function apiRoutes(): string[] {
  return api.routes.filter((route) => / \/api\//.test(route) || route.endsWith(' /metrics'));
}

function expected(rule: (typeof POLICY)[string], role: Role | null): 'allowed' | 401 | 403 {
  if (rule === 'public') return 'allowed';
  if (!role) return 401;
  if (rule === 'signed-in') return 'allowed';
  if (rule === 'elevation-account') return 403;
  const user = { role, permissions: [...ROLE_DEFAULT_PERMISSIONS[role]] };
  return hasPermission(user, rule) ? 'allowed' : 403;
}

it('declares the access rule of every route the API exposes, and no route that is gone', () => {
  const routes = apiRoutes();
  expect(routes.filter((route) => !(route in POLICY))).toEqual([]);
  expect(Object.keys(POLICY).filter((route) => !routes.includes(route))).toEqual([]);
});

it('answers every route × signed-out and the four roles as the policy says', async () => {
  const outcomes: string[] = [];
  const mismatches: string[] = [];
  for (const route of Object.keys(POLICY)) {
    for (const role of [null, 'viewer', 'operator', 'admin', 'super_admin'] as const) {
      // A fresh session each time: some routes (logout) end the one they are called with.
      const cookie = role
        ? await signIn(api.baseUrl, ACCOUNTS[role], role === 'super_admin' ? TEST_ADMIN.password : DEMO_PASSWORD)
        : undefined;
      const [method, path] = route.split(' ') as [string, string];
      const url = path
        .replace(
          ':id',
          /circuit-breakers|services|chaos|test-sessions|domains|domain-alerts|ssl-certificates/.test(path) ? '999999' : randomUUID(),
        )
        .replace(':token', 'no-such-token')
        .replace(':file', 'swagger-ui.css');
      const response = await fetch(`${api.baseUrl}${url}`, {
        method,
        redirect: 'manual',
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(method !== 'GET' && method !== 'DELETE' ? { 'content-type': 'application/json' } : {}),
        },
        body: method !== 'GET' && method !== 'DELETE' ? '{}' : undefined,
      });
      const want = expected(POLICY[route]!, role);
      const ok =
        want === 'allowed' ? response.status !== 401 && response.status !== 403 && response.status < 500 : response.status === want;
      outcomes.push(`${route} as ${role ?? 'signed-out'}: ${response.status}`);
      if (!ok) mismatches.push(`${route} as ${role ?? 'signed-out'}: got ${response.status}, want ${want}`);
    }
  }
  expect(mismatches).toEqual([]);
  expect(outcomes).toHaveLength(Object.keys(POLICY).length * 5);
});
