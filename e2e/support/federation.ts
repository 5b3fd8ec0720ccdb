import type { Page } from '@playwright/test';

/** The providers of a shared module the page's federation runtime has loaded, as "<version> from <app>". */
export async function loadedProviders(page: Page, pkg: string): Promise<string[]> {
  return page.evaluate((name) => {
    type Share = Record<string, Record<string, Record<string, Record<string, { loaded?: boolean; from: string }>>>>;
    const scope = (window as unknown as { __FEDERATION__: { __SHARE__: Share } }).__FEDERATION__.__SHARE__;
    return Object.values(scope).flatMap((instance) =>
      Object.entries(instance.default?.[name] ?? {})
        .filter(([, shared]) => shared.loaded)
        .map(([version, shared]) => `${version} from ${shared.from}`),
    );
  }, pkg);
}
