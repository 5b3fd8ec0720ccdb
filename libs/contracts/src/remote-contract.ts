import semver from 'semver';
import { REMOTE_ROUTES_MODULE } from './remotes';
import { REMOTE_NAMES, routesOf, type RemoteName } from './routes';

/*
 * What a remote's build must be for the shell to load it, checked before a version is stored (by the API) and
 * before it is sent (by `cbh release check|push`): one rule set, so a build the client passes is one the hub takes.
 * Node only (semver): the screens never import it.
 */

/** A remote's remoteEntry.js at most, gzip: the entry every first navigation to its routes downloads. */
export const REMOTE_ENTRY_BUDGET_BYTES = 10 * 1024;

export const CONTRACT_RULES = ['manifest', 'exposes-routes', 'routes', 'shared', 'entry-budget'] as const;
export type ContractRule = (typeof CONTRACT_RULES)[number];

export interface ContractProblem {
  rule: ContractRule;
  /** What is wrong and how to fix it. */
  message: string;
}

/** A build as the check reads it: the remote it is for, its mf-manifest.json parsed, its files, its entry's size. */
export interface RemoteBuild {
  remote: string;
  manifest: unknown;
  /** Paths of the build's files, relative to its folder. */
  files: readonly string[];
  /** remoteEntry.js (the manifest's entry) gzip-compressed, in bytes; null when the build has no such file. */
  remoteEntryGzipBytes: number | null;
}

/** The manifest a remote's build is read from, as the federation plugin names it. */
export const REMOTE_MANIFEST = 'mf-manifest.json';

/**
 * A build's files as the check reads them: its manifest parsed (null when missing or not JSON) and its entry's size
 * once compressed by `gzipSize` (the caller's zlib; this module stays free of Node's).
 */
export function readRemoteBuild(
  remote: string,
  byPath: ReadonlyMap<string, Uint8Array>,
  gzipSize: (bytes: Uint8Array) => number,
): RemoteBuild {
  let manifest: unknown = null;
  try {
    const text = byPath.get(REMOTE_MANIFEST);
    manifest = text ? JSON.parse(new TextDecoder().decode(text)) : null;
  } catch {
    manifest = null;
  }
  const entryName = (manifest as { metaData?: { remoteEntry?: { name?: unknown } } } | null)?.metaData?.remoteEntry?.name;
  const entry = typeof entryName === 'string' ? byPath.get(entryName) : undefined;
  return { remote, manifest, files: [...byPath.keys()], remoteEntryGzipBytes: entry ? gzipSize(entry) : null };
}

interface ManifestShared {
  name?: unknown;
  version?: unknown;
  requiredVersion?: unknown;
  singleton?: unknown;
}

/**
 * The shared packages the shell provides and their versions, as its build writes them (dist/shell/shared-versions.json):
 * a remote may share only these, in a range its version satisfies.
 */
export type ProvidedShared = Record<string, string>;

/** The package a shared request names: 'react/jsx-runtime' is react's, '@cbh/ui/charts' is its own entry of @cbh/ui. */
function providerOf(name: string, provided: ProvidedShared): string | null {
  if (provided[name] !== undefined) return name;
  const base = name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]!;
  return provided[base] !== undefined ? base : null;
}

/** Every rule the build breaks, each with how to fix it; none for a build the shell can load. */
export function remoteContractProblems(build: RemoteBuild, provided: ProvidedShared): ContractProblem[] {
  const problems: ContractProblem[] = [];
  const manifest = build.manifest as {
    name?: unknown;
    metaData?: { remoteEntry?: { name?: unknown } };
    exposes?: { path?: unknown }[];
    shared?: ManifestShared[];
  } | null;
  if (!manifest || typeof manifest !== 'object') {
    return [
      { rule: 'manifest', message: 'mf-manifest.json is missing or not JSON: build the remote with the federation plugin (npm run build)' },
    ];
  }
  if (!(REMOTE_NAMES as readonly string[]).includes(build.remote)) {
    problems.push({ rule: 'routes', message: `${build.remote} is no remote of the route table (${REMOTE_NAMES.join(', ')})` });
  } else if (routesOf(build.remote as RemoteName).length === 0) {
    problems.push({ rule: 'routes', message: `the route table gives ${build.remote} no routes: add them in libs/contracts/src/routes.ts` });
  }
  if (manifest.name !== build.remote) {
    problems.push({
      rule: 'manifest',
      message: `the manifest names the container ${JSON.stringify(manifest.name)}, not ${build.remote}: build the remote's own project`,
    });
  }
  const entry = manifest.metaData?.remoteEntry?.name;
  if (typeof entry !== 'string' || !build.files.includes(entry)) {
    problems.push({ rule: 'manifest', message: `the manifest's remote entry (${String(entry)}) is not among the build's files` });
  }
  if (!Array.isArray(manifest.exposes) || !manifest.exposes.some((exposed) => exposed?.path === `./${REMOTE_ROUTES_MODULE}`)) {
    problems.push({
      rule: 'exposes-routes',
      message: `the build does not expose ./${REMOTE_ROUTES_MODULE}: add exposes: { './${REMOTE_ROUTES_MODULE}': './src/exposes/Routes.tsx' } to its federation config`,
    });
  }
  for (const shared of Array.isArray(manifest.shared) ? manifest.shared : []) {
    const name = typeof shared?.name === 'string' ? shared.name : String(shared?.name);
    const provider = providerOf(name, provided);
    if (!provider) {
      problems.push({
        rule: 'shared',
        message: `it shares ${name}, which the shell does not provide: bundle it into the remote instead (take it out of shared)`,
      });
      continue;
    }
    const wanted =
      typeof shared.requiredVersion === 'string' && shared.requiredVersion !== '' ? shared.requiredVersion : String(shared.version);
    const have = provided[provider]!;
    if (semver.validRange(wanted) === null || !semver.satisfies(have, wanted)) {
      problems.push({
        rule: 'shared',
        message: `it was built against ${name} ${wanted}, and the shell provides ${provider} ${have}: build it against ${provider}@${have}`,
      });
    }
  }
  if (build.remoteEntryGzipBytes !== null && build.remoteEntryGzipBytes > REMOTE_ENTRY_BUDGET_BYTES) {
    problems.push({
      rule: 'entry-budget',
      message: `remoteEntry.js is ${(build.remoteEntryGzipBytes / 1024).toFixed(1)} KB gzip, over its ${REMOTE_ENTRY_BUDGET_BYTES / 1024} KB budget: keep vendors in the exposed module's chunk`,
    });
  }
  return problems;
}
