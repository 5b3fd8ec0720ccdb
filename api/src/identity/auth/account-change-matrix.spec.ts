import { isDeepStrictEqual } from 'node:util';
import { Client } from 'pg';
import { ROLE_DEFAULT_PERMISSIONS, type Permission, type Role } from '@cbh/contracts';
import { apiForThisFile, DEMO_PASSWORD, signIn } from '../../../test/test-api';

// Who may change or delete which other account, through the API: each kind of actor against each kind of target, for
// every action on an account. Who may call which route at all is in permission-matrix.spec.ts.
const spec = apiForThisFile();

type Kind =
  'super_admin' | 'admin + user_management' | 'operator + user_management' | 'viewer' | 'operator' | 'admin' | 'viewer + system_admin';
type Action = 'role' | 'status' | 'permissions' | 'sessions' | 'delete';
type Verdict = 'allowed' | 'refused';

/** Each kind of account: a role with its default permissions, and one more for some. */
const KINDS: Record<Kind, { role: Role; extra?: Permission }> = {
  super_admin: { role: 'super_admin' },
  'admin + user_management': { role: 'admin', extra: 'user_management' },
  'operator + user_management': { role: 'operator', extra: 'user_management' },
  viewer: { role: 'viewer' },
  operator: { role: 'operator' },
  admin: { role: 'admin' },
  'viewer + system_admin': { role: 'viewer', extra: 'system_admin' },
};

const every = (verdict: Verdict): Record<Action, Verdict> => ({
  role: verdict,
  status: verdict,
  permissions: verdict,
  sessions: verdict,
  delete: verdict,
});

/**
 * Who may change or delete whom: only a super_admin touches a super_admin, and a user manager touches no account
 * holding a permission they lack. Each actor tries each action on a fresh target; `allowed` means the change is
 * made, `refused` a 403 with the database row as it was.
 */
const TARGET_RULES: [actor: Kind, target: Kind, Record<Action, Verdict>][] = [
  ['super_admin', 'super_admin', every('allowed')],
  ['super_admin', 'admin + user_management', every('allowed')],
  ['super_admin', 'viewer + system_admin', every('allowed')],
  ['super_admin', 'admin', every('allowed')],
  ['admin + user_management', 'super_admin', every('refused')],
  ['admin + user_management', 'admin + user_management', every('allowed')],
  ['admin + user_management', 'viewer + system_admin', every('refused')],
  ['admin + user_management', 'admin', every('allowed')],
  ['admin + user_management', 'operator', every('allowed')],
  ['admin + user_management', 'viewer', every('allowed')],
  ['operator + user_management', 'super_admin', every('refused')],
  ['operator + user_management', 'admin + user_management', every('refused')],
  ['operator + user_management', 'admin', every('refused')],
  ['operator + user_management', 'operator', every('allowed')],
  ['operator + user_management', 'viewer', every('allowed')],
];

/** Each action with a body every actor here may send, and the row it leaves when it is made. */
const ACTIONS: Record<
  Action,
  { method: string; path: (id: string) => string; body?: unknown; made: (row: AccountRow | undefined) => boolean }
> = {
  role: { method: 'PATCH', path: (id) => `/api/users/${id}`, body: { role: 'viewer' }, made: (row) => row?.role === 'viewer' },
  status: { method: 'PATCH', path: (id) => `/api/users/${id}/status`, body: { isActive: false }, made: (row) => row?.is_active === false },
  permissions: {
    method: 'PATCH',
    path: (id) => `/api/users/${id}/permissions`,
    body: { permissions: ['dashboard_view'] },
    made: (row) => row?.permissions.join() === 'dashboard_view',
  },
  // ending an account's sessions leaves its row as it was: made when answered 200
  sessions: { method: 'DELETE', path: (id) => `/api/users/${id}/sessions`, made: (row) => row !== undefined },
  delete: { method: 'DELETE', path: (id) => `/api/users/${id}`, made: (row) => row === undefined },
};

interface AccountRow {
  role: string;
  permissions: string[];
  is_active: boolean;
}

describe('changing another account', () => {
  let root: string;
  let created = 0;
  // one connection for the many row reads (a connection per query would make them most of the test's time)
  let db: Client;

  beforeAll(async () => {
    // the bootstrap super admin's session
    root = spec.admin;
    db = new Client({ connectionString: spec.api.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
  });

  /** A new account of the kind, invited by the bootstrap super admin. */
  async function account(kind: Kind): Promise<{ id: string; email: string }> {
    const email = `${kind.replace(/\W+/g, '-')}-${++created}@matrix.example.com`;
    const invited = await spec.api.call('/api/users/invite', { method: 'POST', cookie: root, body: { email, role: KINDS[kind].role } });
    const { id } = await invited.json();
    const { role, extra } = KINDS[kind];
    if (!extra) return { id, email };
    const permissions = await spec.api.call(`/api/users/${id}/permissions`, {
      method: 'PATCH',
      cookie: root,
      body: { permissions: [...ROLE_DEFAULT_PERMISSIONS[role], extra] },
    });
    expect(permissions.status).toBe(200);
    return { id, email };
  }

  /** A new account of the kind, signed in (it is given the demo accounts' password behind the API's back). */
  async function actor(kind: Kind): Promise<string> {
    if (kind === 'super_admin') return root;
    const { id, email } = await account(kind);
    await db.query("UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE email = 'viewer@example.com') WHERE id = $1", [
      id,
    ]);
    return signIn(spec.api.baseUrl, email, DEMO_PASSWORD);
  }

  const rowOf = async (id: string) =>
    (await db.query<AccountRow>('SELECT role, permissions, is_active FROM users WHERE id = $1', [id])).rows[0];

  it('lets only a super_admin change a super_admin, and nobody an account holding more than they do', async () => {
    const mismatches: string[] = [];
    const actors = new Map<Kind, string>();
    for (const [actorKind, targetKind, verdicts] of TARGET_RULES) {
      if (!actors.has(actorKind)) actors.set(actorKind, await actor(actorKind));
      const cookie = actors.get(actorKind);
      for (const [action, want] of Object.entries(verdicts) as [Action, Verdict][]) {
        const { id } = await account(targetKind);
        const before = await rowOf(id);
        const { method, path, body, made } = ACTIONS[action];
        const response = await spec.api.call(path(id), { method, body, cookie });
        const after = await rowOf(id);
        const got =
          response.ok && made(after)
            ? 'allowed'
            : response.status === 403 && isDeepStrictEqual(after, before)
              ? 'refused'
              : `${response.status}`;
        if (got !== want) mismatches.push(`${actorKind} → ${targetKind}, ${action}: got ${got}, want ${want}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
