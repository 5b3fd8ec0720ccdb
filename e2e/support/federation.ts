import type { Page } from '@playwright/test';

/**
 * The federation runtime's share scopes as the page holds them: by runtime instance, scope, package and version, who
 * registered each and whether it was loaded. (A type only: the functions below run in the page.)
 */
type FederationWindow = {
  __FEDERATION__: {
    __SHARE__: Record<string, Record<string, Record<string, Record<string, { loaded?: boolean; loading?: unknown; from: string }>>>>;
  };
};

/** The providers of a shared module the page's federation runtime has loaded, as "<version> from <app>". */
export async function loadedProviders(page: Page, pkg: string): Promise<string[]> {
  return page.evaluate((name) => {
    const scope = (window as unknown as FederationWindow).__FEDERATION__.__SHARE__;
    return Object.values(scope).flatMap((instance) =>
      Object.entries(instance.default?.[name] ?? {})
        .filter(([, shared]) => shared.loaded)
        .map(([version, shared]) => `${version} from ${shared.from}`),
    );
  }, pkg);
}

/** The shared packages an app registered that nobody has loaded yet: what another app would fetch from its build. */
export async function unloadedRegistrations(page: Page, from: string): Promise<string[]> {
  return page.evaluate((app) => {
    const scope = (window as unknown as FederationWindow).__FEDERATION__.__SHARE__;
    const names = Object.values(scope).flatMap((instance) =>
      Object.entries(instance.default ?? {})
        .filter(([, versions]) => Object.values(versions).some((shared) => shared.from === app && !shared.loaded && !shared.loading))
        .map(([name]) => name),
    );
    return [...new Set(names)].sort();
  }, from);
}
