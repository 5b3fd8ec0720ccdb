import { lazy, type ComponentType } from 'react';
import { matchPath, useLocation } from 'react-router-dom';

export interface RoutePage {
  path: string;
  Component: ComponentType;
}

/** Renders the page whose path matches the current location; a remote's routes component is one of these. */
export function RoutePages({ pages }: { pages: readonly RoutePage[] }) {
  const { pathname } = useLocation();
  const page = pages.find((p) => matchPath(p.path, pathname));
  return page ? <page.Component /> : null;
}

/**
 * A page whose code is fetched with the first navigation to it, not with its remote: a remote's first route
 * then costs its own page, not every page the remote has. While it loads, the shell's boundary around the
 * remote shows its loading state; a page that cannot be loaded shows the remote's fallback card.
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): ComponentType {
  return lazy(() => load().then((module) => ({ default: pick(module) })));
}
