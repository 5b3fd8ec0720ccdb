import type { ConfigDocument, CreatedApiTokenView, ImportChange, ImportResult } from '@cbh/contracts';
import type { TestApi } from '../../test/test-api';

/** Who calls: a session's cookie or an access token's header. */
export type Caller = { cookie: string } | { authorization: string };

/**
 * GET /api/export and POST /api/import as the configuration specs call them, as the admin unless a caller is given.
 * `spec` is the file's apiForThisFile: read at each call, since its API starts in beforeAll.
 */
export function documentRoutes(spec: { readonly api: TestApi; readonly admin: string }) {
  const asAdmin = (): Caller => ({ cookie: spec.admin });

  const exported = async (query = '', { caller = asAdmin(), accept }: { caller?: Caller; accept?: string } = {}) => {
    const response = await fetch(`${spec.api.baseUrl}/api/export${query}`, { headers: { ...caller, ...(accept ? { accept } : {}) } });
    expect(response.status).toBe(200);
    return { text: await response.text(), type: response.headers.get('content-type') };
  };
  const exportedDocument = async (caller = asAdmin()): Promise<ConfigDocument & Record<string, unknown>> =>
    JSON.parse((await exported('', { caller })).text);

  const importing = (body: unknown, { query = '', type = 'application/json', caller = asAdmin() } = {}) =>
    fetch(`${spec.api.baseUrl}/api/import${query}`, {
      method: 'POST',
      headers: { ...caller, 'content-type': type },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const imported = async (body: unknown, options: { query?: string; type?: string; caller?: Caller } = {}): Promise<ImportChange[]> => {
    const response = await importing(body, options);
    const answer = await response.json();
    // the answer shown when the status is not 200
    expect({ status: response.status, answer }).toMatchObject({ status: 200 });
    return (answer as ImportResult).changes;
  };

  /** How many audit entries there are of each action. */
  const auditCounts = async (): Promise<Record<string, number>> =>
    Object.fromEntries(
      (await spec.api.sql('SELECT action, count(*)::int AS n FROM audit_entries GROUP BY action')).map((row) => [row.action, row.n]),
    );

  /**
   * Export, apply, export: the document as JSON and as YAML, each applied back, changes and audits nothing, and the
   * exports that follow are the same bytes. Returns the two exports, for what the test reads in them.
   */
  const roundTrips = async () => {
    const json = await exported();
    const yaml = await exported('?format=yaml');
    const audited = await auditCounts();
    expect(changed(await imported(json.text))).toEqual([]);
    expect(changed(await imported(yaml.text, { type: 'application/yaml' }))).toEqual([]);
    expect((await exported()).text).toBe(json.text);
    expect((await exported('?format=yaml')).text).toBe(yaml.text);
    expect(await auditCounts()).toEqual(audited);
    return { json, yaml };
  };

  /** A token of the admin's holding only these permissions, as a caller. */
  const callerWith = async (permissions: string[]): Promise<Caller> => {
    const response = await spec.api.call('/api/tokens', {
      method: 'POST',
      body: { name: permissions.join(' '), expiresInDays: 1, permissions },
      cookie: spec.admin,
    });
    expect(response.status).toBe(201);
    return { authorization: `Bearer ${((await response.json()) as CreatedApiTokenView).token}` };
  };

  return { exported, exportedDocument, importing, imported, auditCounts, roundTrips, callerWith };
}

export const changed = (changes: ImportChange[]) => changes.filter((change) => change.action !== 'unchanged');
export const refusal = async (response: Response) => ({ status: response.status, message: (await response.json()).message });

/** The document's lists, in the order it writes them (what `omitted` names for a reader who may read none). */
export const EVERY_LIST = [
  'breakers',
  'services',
  'domains',
  'channels',
  'notificationRules',
  'maintenanceWindows',
  'scrapeTargets',
  'schedules',
  'escalationPolicies',
  'statusPages',
  'slos',
  'drills',
];
/** The lists only holders of circuit_breaker_admin read and write. */
export const ADMIN_ONLY_LISTS = EVERY_LIST.slice(3);
