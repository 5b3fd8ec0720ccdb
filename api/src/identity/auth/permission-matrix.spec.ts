import { randomUUID } from 'node:crypto';
import { hasPermission, ROLE_DEFAULT_PERMISSIONS, type Permission, type Role } from '@cbh/contracts';
import { DEMO_PASSWORD, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';

// Every route the API exposes, called signed out and by each role with a session and with a token, against the
// policy below. Who may change which other account is in account-change-matrix.spec.ts.

/**
 * The server-side policy of every API route: who may call it. A route missing here fails this test: a new
 * endpoint must declare who may call it, and say it here.
 */
const POLICY: Record<string, 'public' | 'signed-in' | 'elevation-account' | 'service-agent' | 'super-admin' | Permission | Permission[]> = {
  'GET /metrics': 'metrics_view',
  'GET /api/health': 'public',
  'GET /api/login': 'public',
  'POST /api/login': 'public',
  'GET /api/logout': 'public',
  'POST /api/logout': 'public',
  'GET /api/login/callback': 'public',
  'GET /api/login/link': 'public',
  'GET /api/auth/user': 'signed-in',
  'GET /api/invitations/:token': 'public',
  'POST /api/invitations/:token': 'public',
  'GET /api/users': 'user_management',
  'GET /api/users/summary': 'user_management',
  'GET /api/organizations': ['user_management', 'organization_admin'],
  'PATCH /api/organizations/:id': 'organization_admin',
  'POST /api/users/invite': 'user_management',
  'PATCH /api/users/:id': 'user_management',
  'PATCH /api/users/:id/status': 'user_management',
  'PATCH /api/users/:id/permissions': 'user_management',
  'DELETE /api/users/:id': 'user_management',
  'DELETE /api/users/:id/sessions': 'user_management',
  'GET /api/sessions': 'signed-in',
  'DELETE /api/sessions/others': 'signed-in',
  'DELETE /api/sessions/:id': 'signed-in',
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
  'GET /api/circuit-breakers/:id/instances': 'circuit_breaker_view',
  'GET /api/circuit-breakers/:id/history': 'circuit_breaker_view',
  // a service account's token only (a person's session or token is a 403: fleet-report-admission.spec.ts)
  'POST /api/agent/reports': 'service-agent',
  // and for the items the permission of their single action (a 403 naming it: bulk.spec.ts)
  'POST /api/circuit-breakers/bulk': 'bulk_operations',
  'GET /api/services': 'circuit_breaker_view',
  'POST /api/services': 'circuit_breaker_admin',
  'PATCH /api/services/:id': 'circuit_breaker_admin',
  'DELETE /api/services/:id': 'circuit_breaker_admin',
  'POST /api/services/:id/test': 'circuit_breaker_operate',
  'GET /api/chaos/:id': 'public', // no session, but only the API's own calls are answered: others get 404 (services.spec.ts)
  'GET /api/metrics/latest': 'circuit_breaker_view',
  'GET /api/dashboard/stats': 'dashboard_view',
  'GET /api/dashboard/activity': 'dashboard_view',
  'GET /api/dashboard/health': 'circuit_breaker_view',
  'GET /api/test-sessions': 'circuit_breaker_view',
  'POST /api/test-sessions': 'circuit_breaker_operate',
  'POST /api/test-sessions/:id/stop': 'circuit_breaker_operate',
  'GET /api/domains': 'domain_management',
  'GET /api/domains/:id': 'domain_management',
  'GET /api/domain-summary': 'domain_management',
  'POST /api/domains': 'domain_management',
  'DELETE /api/domains/:id': 'domain_management',
  'POST /api/domains/:id/verify': 'domain_management',
  'POST /api/domains/bulk': 'bulk_operations',
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
  'POST /api/tokens': 'api_access',
  'GET /api/tokens': 'api_access',
  'DELETE /api/tokens/:id': 'api_access',
  'GET /api/system/retention': 'system_admin',
  'PATCH /api/system/retention': 'system_admin',
  'POST /api/system/retention/prune': 'system_admin',
  'GET /api/service-accounts': 'user_management',
  'POST /api/service-accounts': 'user_management',
  'PATCH /api/service-accounts/:id': 'user_management',
  'DELETE /api/service-accounts/:id': 'user_management',
  'POST /api/service-accounts/:id/tokens': 'user_management',
  'GET /api/service-accounts/:id/tokens': 'user_management',
  'DELETE /api/service-accounts/:id/tokens/:tokenId': 'user_management',
  'GET /api/export': 'export_data',
  'POST /api/import': 'import_data',
  // loaded for real by the super admin's call, and removed again by its DELETE
  'GET /api/sample-data': 'super-admin',
  'POST /api/sample-data': 'super-admin',
  'DELETE /api/sample-data': 'super-admin',
  // rules of domain events also need domain_management (a 403 naming it: notifications.spec.ts)
  'GET /api/notification-channels': 'circuit_breaker_admin',
  'POST /api/notification-channels': 'circuit_breaker_admin',
  'GET /api/notification-channels/:id': 'circuit_breaker_admin',
  'PATCH /api/notification-channels/:id': 'circuit_breaker_admin',
  'DELETE /api/notification-channels/:id': 'circuit_breaker_admin',
  'POST /api/notification-channels/:id/test': 'circuit_breaker_admin',
  'GET /api/notification-rules': 'circuit_breaker_admin',
  'POST /api/notification-rules': 'circuit_breaker_admin',
  'PATCH /api/notification-rules/:id': 'circuit_breaker_admin',
  'DELETE /api/notification-rules/:id': 'circuit_breaker_admin',
  'GET /api/maintenance-windows': 'circuit_breaker_admin',
  'POST /api/maintenance-windows': 'circuit_breaker_admin',
  'PATCH /api/maintenance-windows/:id': 'circuit_breaker_admin',
  'DELETE /api/maintenance-windows/:id': 'circuit_breaker_admin',
  'GET /api/notification-deliveries': 'circuit_breaker_admin',
  'POST /api/notification-deliveries/:id/retry': 'circuit_breaker_admin',
  'GET /api/scrape-targets': 'circuit_breaker_admin',
  'POST /api/scrape-targets': 'circuit_breaker_admin',
  'GET /api/scrape-targets/:id': 'circuit_breaker_admin',
  'PATCH /api/scrape-targets/:id': 'circuit_breaker_admin',
  'DELETE /api/scrape-targets/:id': 'circuit_breaker_admin',
  'GET /api/releases': 'system_admin',
  'POST /api/releases/:remote/check': 'system_admin',
  'POST /api/releases/:remote/versions': 'system_admin',
  'POST /api/releases/:remote/promote': 'system_admin',
  'POST /api/releases/:remote/rollback': 'system_admin',
  'POST /api/releases/:remote/canary': 'system_admin',
  'POST /api/releases/:remote/canary/abort': 'system_admin',
  'POST /api/releases/:remote/pin': 'system_admin',
  'DELETE /api/releases/:remote/versions/:id': 'system_admin',
  'POST /api/releases/loads': 'signed-in',
  // status pages: published by circuit_breaker_admin, incidents are operations; the public side needs no session
  'GET /api/status-pages': 'circuit_breaker_admin',
  'POST /api/status-pages': 'circuit_breaker_admin',
  'GET /api/status-pages/:id': ['circuit_breaker_admin', 'circuit_breaker_operate'],
  'PATCH /api/status-pages/:id': 'circuit_breaker_admin',
  'DELETE /api/status-pages/:id': 'circuit_breaker_admin',
  'GET /api/status-pages/:id/incidents': ['circuit_breaker_admin', 'circuit_breaker_operate'],
  'POST /api/status-pages/:id/incidents': 'circuit_breaker_operate',
  'POST /api/status-pages/:id/incidents/:incidentId/updates': 'circuit_breaker_operate',
  'GET /api/status-pages/:id/subscribers': 'circuit_breaker_admin',
  'DELETE /api/status-pages/:id/subscribers/:subscriberId': 'circuit_breaker_admin',
  'GET /api/status-components': 'circuit_breaker_operate',
  'GET /api/public/status/:slug': 'public',
  'POST /api/public/status/:slug/subscriptions': 'public',
  // on-call schedules: kept by circuit_breaker_admin, read by those who act on alerts
  'GET /api/schedules': ['circuit_breaker_admin', 'circuit_breaker_operate'],
  'POST /api/schedules': 'circuit_breaker_admin',
  'GET /api/schedules/:id': ['circuit_breaker_admin', 'circuit_breaker_operate'],
  'GET /api/schedules/:id/on-call': ['circuit_breaker_admin', 'circuit_breaker_operate'],
  'PATCH /api/schedules/:id': 'circuit_breaker_admin',
  'DELETE /api/schedules/:id': 'circuit_breaker_admin',
  // escalation policies: kept by circuit_breaker_admin, as notification rules are
  'GET /api/escalation-policies': ['circuit_breaker_admin', 'circuit_breaker_operate'],
  'POST /api/escalation-policies': 'circuit_breaker_admin',
  'GET /api/escalation-policies/:id': ['circuit_breaker_admin', 'circuit_breaker_operate'],
  'PATCH /api/escalation-policies/:id': 'circuit_breaker_admin',
  'DELETE /api/escalation-policies/:id': 'circuit_breaker_admin',
  // a person's own calendar address, and the calendar at it (its secret address its only credential)
  'POST /api/account/on-call-feed': 'signed-in',
  'DELETE /api/account/on-call-feed': 'signed-in',
  'GET /api/public/on-call/:file': 'public',
  'GET /api/schedules/:id/shifts': ['circuit_breaker_admin', 'circuit_breaker_operate'],
  // alert groups: read by whoever reads breakers, acted on by operators (a domain's groups: also domain_management)
  'GET /api/alert-groups': 'circuit_breaker_view',
  'GET /api/alert-groups/summary': 'circuit_breaker_view',
  'GET /api/alert-groups/response-times': 'circuit_breaker_view',
  'GET /api/alert-groups/:id': 'circuit_breaker_view',
  'POST /api/alert-groups/:id/acknowledge': 'circuit_breaker_operate',
  'POST /api/alert-groups/:id/unacknowledge': 'circuit_breaker_operate',
  'POST /api/alert-groups/:id/resolve': 'circuit_breaker_operate',
  'POST /api/alert-groups/:id/silence': 'circuit_breaker_operate',
  // the page an acknowledge link opens: its signature is its only credential
  'GET /api/public/acknowledge': 'public',
  'POST /api/public/acknowledge': 'public',
  // each person's own contact methods, in a session
  'GET /api/account/contact-methods': 'signed-in',
  'POST /api/account/contact-methods': 'signed-in',
  'DELETE /api/account/contact-methods/:id': 'signed-in',
  'GET /api/on-call/people': ['circuit_breaker_admin', 'circuit_breaker_operate'],
  // what a breaker depends on
  'GET /api/circuit-breakers/:id/dependencies': 'circuit_breaker_view',
  'PUT /api/circuit-breakers/:id/dependencies': 'circuit_breaker_admin',
  // service level objectives (domain SLOs also need domain_management, judged by the service)
  'GET /api/slos': 'circuit_breaker_view',
  'POST /api/slos': 'circuit_breaker_admin',
  'GET /api/slos/:id': 'circuit_breaker_view',
  'PATCH /api/slos/:id': 'circuit_breaker_admin',
  'DELETE /api/slos/:id': 'circuit_breaker_admin',
  'GET /api/slos/:id/report': 'circuit_breaker_view',
  'GET /api/slos/report': 'circuit_breaker_view',
  'POST /api/drills': 'circuit_breaker_admin',
  'GET /api/drills': 'circuit_breaker_admin',
  'GET /api/drills/:id': 'circuit_breaker_admin',
  'POST /api/drills/:id/stop': 'circuit_breaker_admin',
  'POST /api/drills/stop-all': 'circuit_breaker_admin',
  'GET /api/drill-definitions': 'circuit_breaker_admin',
  'POST /api/drill-definitions/:id/run': 'circuit_breaker_admin',
};

/**
 * The routes a personal access token never passes, whatever its permissions (403): signing in and out, invitations,
 * elevation, creating or listing one's tokens, creating a service account's and one's own sessions need a person's
 * session (@SessionOnly).
 */
const SESSION_ONLY = new Set([
  // a calendar's secret address is made and revoked by the person, in a session, never by a token
  'POST /api/account/on-call-feed',
  'DELETE /api/account/on-call-feed',
  // where a person is paged is theirs to set, in a session
  'GET /api/account/contact-methods',
  'POST /api/account/contact-methods',
  'DELETE /api/account/contact-methods/:id',
  'GET /api/login',
  'POST /api/login',
  'GET /api/logout',
  'POST /api/logout',
  'GET /api/login/callback',
  'GET /api/login/link',
  'GET /api/invitations/:token',
  'POST /api/invitations/:token',
  'POST /api/auth/elevate-privileges',
  'GET /api/auth/get-otp',
  'GET /api/auth/elevate/verify/:token',
  'POST /api/tokens',
  'GET /api/tokens',
  'POST /api/service-accounts/:id/tokens',
  'GET /api/sessions',
  'DELETE /api/sessions/others',
  'DELETE /api/sessions/:id',
  'GET /api/sample-data',
  'POST /api/sample-data',
  'DELETE /api/sample-data',
]);

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

function expected(rule: (typeof POLICY)[string], role: Role | null, extra: Permission[] = []): 'allowed' | 401 | 403 {
  if (rule === 'public') return 'allowed';
  if (!role) return 401;
  if (rule === 'signed-in') return 'allowed';
  if (rule === 'elevation-account' || rule === 'service-agent') return 403;
  if (rule === 'super-admin') return role === 'super_admin' ? 'allowed' : 403;
  const user = { role, permissions: [...ROLE_DEFAULT_PERMISSIONS[role], ...extra] };
  // a list: any one of them will do
  return [rule].flat().some((permission) => hasPermission(user, permission)) ? 'allowed' : 403;
}

/** A call to a route of the policy, its parameters filled with ids that exist nowhere. */
function callRoute(route: string, headers: Record<string, string>): Promise<Response> {
  const [method, path] = route.split(' ') as [string, string];
  const url = path
    .replace(
      ':id',
      /circuit-breakers|services|chaos|test-sessions|domains|domain-alerts|ssl-certificates|scrape-targets/.test(path)
        ? '999999'
        : path.startsWith('/api/sessions/')
          ? 'f'.repeat(64)
          : randomUUID(),
    )
    .replace(':tokenId', randomUUID())
    .replace(':token', 'no-such-token')
    .replace(':file', 'swagger-ui.css');
  const hasBody = method !== 'GET' && method !== 'DELETE';
  return fetch(`${api.baseUrl}${url}`, {
    method,
    redirect: 'manual',
    headers: { ...headers, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
    body: hasBody ? '{}' : undefined,
  });
}

const outcomeMatches = (want: 'allowed' | 401 | 403, status: number) =>
  want === 'allowed' ? status !== 401 && status !== 403 && status < 500 : status === want;

it('declares the access rule of every route the API exposes, and no route that is gone', () => {
  const routes = apiRoutes();
  expect(routes.filter((route) => !(route in POLICY))).toEqual([]);
  expect(Object.keys(POLICY).filter((route) => !routes.includes(route))).toEqual([]);
});

it('answers every route × signed-out and the four roles as the policy says', async () => {
  const outcomes: string[] = [];
  const mismatches: string[] = [];
  const sessions = new Map<string, string>();
  const signInAs = (role: keyof typeof ACCOUNTS) =>
    signIn(api.baseUrl, ACCOUNTS[role], role === 'super_admin' ? TEST_ADMIN.password : DEMO_PASSWORD);
  for (const route of Object.keys(POLICY)) {
    // sign-out and ending sessions end the session called with, or the role's others: they get a fresh one (and the
    // role's one session is signed in again after them), every other route the role's one session
    const endsSession = route.endsWith('/api/logout') || route.startsWith('DELETE /api/sessions/');
    if (endsSession) sessions.clear();
    for (const role of [null, 'viewer', 'operator', 'admin', 'super_admin'] as const) {
      let cookie: string | undefined;
      if (role && endsSession) cookie = await signInAs(role);
      else if (role) {
        if (!sessions.has(role)) sessions.set(role, await signInAs(role));
        cookie = sessions.get(role);
      }
      const response = await callRoute(route, cookie ? { cookie } : {});
      const want = expected(POLICY[route]!, role);
      const ok = outcomeMatches(want, response.status);
      outcomes.push(`${route} as ${role ?? 'signed-out'}: ${response.status}`);
      if (!ok) mismatches.push(`${route} as ${role ?? 'signed-out'}: got ${response.status}, want ${want}`);
    }
  }
  expect(mismatches).toEqual([]);
  expect(outcomes).toHaveLength(Object.keys(POLICY).length * 5);
});

it('answers every route × a bearer token of each role as with a session, but refuses the session-only routes (403)', async () => {
  const root = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  const tokens = new Map<Role, string>();
  for (const role of ['viewer', 'operator', 'admin', 'super_admin'] as const) {
    // the roles below super_admin do not hold api_access by default: the super admin grants it
    if (role !== 'super_admin') {
      const [{ id }] = await api.sql('SELECT id FROM users WHERE email = $1', [ACCOUNTS[role]]);
      const granted = await api.call(`/api/users/${id}/permissions`, {
        method: 'PATCH',
        cookie: root,
        body: { permissions: [...ROLE_DEFAULT_PERMISSIONS[role], 'api_access'] },
      });
      expect(granted.status).toBe(200);
    }
    const session = role === 'super_admin' ? root : await signIn(api.baseUrl, ACCOUNTS[role], DEMO_PASSWORD);
    const created = await api.call('/api/tokens', { method: 'POST', cookie: session, body: { name: `matrix ${role}`, expiresInDays: 1 } });
    expect(created.status).toBe(201);
    tokens.set(role, (await created.json()).token);
  }
  const mismatches: string[] = [];
  for (const route of Object.keys(POLICY)) {
    for (const [role, token] of tokens) {
      const response = await callRoute(route, { authorization: `Bearer ${token}` });
      const want = SESSION_ONLY.has(route) ? 403 : expected(POLICY[route]!, role, ['api_access']);
      if (!outcomeMatches(want, response.status)) mismatches.push(`${route} with a ${role}'s token: got ${response.status}, want ${want}`);
      if (response.headers.get('set-cookie')) mismatches.push(`${route} with a ${role}'s token set a cookie`);
    }
  }
  expect(mismatches).toEqual([]);
  expect([...SESSION_ONLY].filter((route) => !(route in POLICY))).toEqual([]);
});
