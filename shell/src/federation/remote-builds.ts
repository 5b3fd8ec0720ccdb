import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/**
 * A remote's build, told apart by its mf-manifest.json: the manifest names every content-hashed file of the
 * build, so it changes exactly when the remote's code does. (Its buildInfo only carries the package's
 * version, which a redeploy need not change.)
 */
function buildIdentity(manifest: unknown): string {
  return JSON.stringify(manifest);
}

/** The build of each remote that the federation runtime loaded last, by remote name. */
const loadedBuilds = new Map<string, string>();

/** Records the manifest of each remote build the federation runtime loads, as the runtime read it. */
export function loadedBuildsPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'loaded-builds',
    afterLoadManifest({ moduleInfo, manifestJson }) {
      if (manifestJson) loadedBuilds.set(moduleInfo.name, buildIdentity(manifestJson));
    },
  };
}

/** The build the server deploys now; undefined when the server cannot be asked. */
async function deployedBuild(manifestUrl: string): Promise<string | undefined> {
  let response: Response;
  try {
    // Read whole each time (a few KB), not revalidated: nginx's validators are the file's modification time in
    // seconds and its size, and a deploy that replaces the manifest within the second by one of the same size (its
    // hashes are all of one length) would be answered 304, its build never seen.
    response = await fetch(manifestUrl, { cache: 'no-store' });
  } catch (error) {
    console.warn(`[shell] ${manifestUrl} could not be checked`, error);
    return undefined;
  }
  // A missing or unreadable manifest is a broken deploy: loading it again shows the fallback card.
  if (!response.ok) return `HTTP ${response.status}`;
  return response.json().then(buildIdentity, () => 'unreadable manifest');
}

/**
 * Whether the server now deploys another build of a remote than the one loaded. False before the remote's
 * first load (nothing to compare, nothing to ask) and when the server cannot be asked (the loaded build
 * keeps working).
 */
export async function isRedeployed(remoteName: string, manifestUrl: string): Promise<boolean> {
  const loaded = loadedBuilds.get(remoteName);
  if (loaded === undefined) return false;
  const deployed = await deployedBuild(manifestUrl);
  return deployed !== undefined && deployed !== loaded;
}
