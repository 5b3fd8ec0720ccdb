// Plain code rather than a zod schema: the shell validates /remotes.json before its first paint, and a schema
// library there would cost the first paint its whole runtime. The API and the tests use the same checks.

/** One independently deployed screen area, as listed in /remotes.json. */
export interface RemoteDescriptor {
  /** The federation container name, e.g. mfe_dashboard. */
  name: string;
  /** URL of the remote's mf-manifest.json, same-origin path or absolute URL. */
  entry: string;
  /** The exact route paths this remote renders. */
  routes: string[];
}

export interface RemotesManifest {
  remotes: RemoteDescriptor[];
}

/** A rule a remotes manifest breaks, and where: a path such as remotes.0.name ('' for the whole manifest). */
export interface ManifestIssue {
  path: string;
  message: string;
}

export type RemotesManifestCheck = { success: true; data: RemotesManifest } | { success: false; issues: ManifestIssue[] };

/** An absolute path whose segments are words or parameters: /, /dashboard, /circuit-breakers/:id. */
const ROUTE_PATH = /^\/$|^(\/([A-Za-z0-9-]+|:[A-Za-z]+))+$/;
const CONTAINER_NAME = /^[a-z][a-z0-9_]*$/;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function checkRemote(value: unknown, at: string, issues: ManifestIssue[]): RemoteDescriptor | undefined {
  if (!isRecord(value)) {
    issues.push({ path: at, message: 'a remote is an object with name, entry and routes' });
    return undefined;
  }
  const { name, entry, routes } = value;
  const before = issues.length;
  if (typeof name !== 'string' || !CONTAINER_NAME.test(name))
    issues.push({ path: `${at}.name`, message: 'a container name is lower_snake_case' });
  if (typeof entry !== 'string' || entry.length === 0)
    issues.push({ path: `${at}.entry`, message: 'an entry is the URL of the remote’s mf-manifest.json' });
  if (!Array.isArray(routes) || routes.length === 0) {
    issues.push({ path: `${at}.routes`, message: 'a remote renders at least one route' });
  } else {
    routes.forEach((route: unknown, index) => {
      if (typeof route !== 'string' || !ROUTE_PATH.test(route))
        issues.push({ path: `${at}.routes.${index}`, message: 'a route is an absolute path such as /dashboard or /circuit-breakers/:id' });
    });
  }
  // only the known fields are kept, as a schema would strip the others
  return issues.length === before ? { name: name as string, entry: entry as string, routes: [...(routes as string[])] } : undefined;
}

/** Checks a parsed /remotes.json against the rules of the deployment manifest, reporting every rule it breaks. */
export function checkRemotesManifest(value: unknown): RemotesManifestCheck {
  const issues: ManifestIssue[] = [];
  if (!isRecord(value) || !Array.isArray(value.remotes)) {
    return { success: false, issues: [{ path: 'remotes', message: 'a remotes manifest is an object with a list of remotes' }] };
  }
  const remotes = value.remotes.map((remote: unknown, index) => checkRemote(remote, `remotes.${index}`, issues));
  if (issues.length > 0) return { success: false, issues };

  const routes = remotes.flatMap((remote) => remote!.routes);
  if (new Set(routes).size !== routes.length)
    return { success: false, issues: [{ path: '', message: 'each route belongs to exactly one remote' }] };
  return { success: true, data: { remotes: remotes as RemoteDescriptor[] } };
}

/** The rules a manifest breaks, in one line: "remotes.0.name: a container name is lower_snake_case; …". */
export function describeManifestIssues(issues: readonly ManifestIssue[]): string {
  return issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
}

/** The manifest, checked; throws naming every rule it breaks, and `source` (a file) when given. */
export function parseRemotesManifest(value: unknown, source?: string): RemotesManifest {
  const checked = checkRemotesManifest(value);
  if (!checked.success) {
    throw new Error(`${source ? `${source} is ` : ''}not a valid remotes manifest: ${describeManifestIssues(checked.issues)}`);
  }
  return checked.data;
}

/** Every remote exposes its routes component under this module name. */
export const REMOTE_ROUTES_MODULE = 'Routes';

/** The build folders of the remotes deployed with the site: entries of the form /remotes/<folder>/... */
export function localRemoteFolders(manifest: RemotesManifest): string[] {
  return manifest.remotes.flatMap(({ entry }) => /^\/remotes\/([\w-]+)\//.exec(entry)?.[1] ?? []);
}
