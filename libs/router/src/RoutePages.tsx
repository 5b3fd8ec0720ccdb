import { lazy, type ComponentType } from 'react';
import { matchPath, useLocation } from 'react-router-dom';

export interface RoutePage {
  path: string;
  Component: ComponentType;
}

/** A page fetched on its first visit: `load` fetches its code and gives its component. */
export interface LazyRoutePage {
  path: string;
  load: () => Promise<ComponentType>;
}

/** The page whose path matches: the first, so /circuit-breakers/new comes before /circuit-breakers/:id. */
const pageAt = <Page extends { path: string }>(pages: readonly Page[], pathname: string) =>
  pages.find((page) => matchPath(page.path, pathname));

/**
 * Pages fetched on their first visit (React.lazy), and the one at `pathname` fetched at once. A remote's routes module
 * calls this as it is evaluated, which the shell has it do while the shell itself still renders: the page's code then
 * travels alongside, instead of being asked for only once the routes component first renders (one more round trip
 * before the page's own requests could leave). The chunk is fetched once: lazy's own call later takes the same one.
 */
export function lazyPages(pages: readonly LazyRoutePage[], pathname: string = window.location.pathname): RoutePage[] {
  // a page whose code fails here is asked for again when it renders, and says so then
  pageAt(pages, pathname)
    ?.load()
    .catch(() => undefined);
  return pages.map(({ path, load }) => ({ path, Component: lazy(() => load().then((component) => ({ default: component }))) }));
}

/** Renders the page whose path matches the current location; a remote's routes component is one of these. */
export function RoutePages({ pages }: { pages: readonly RoutePage[] }) {
  const { pathname } = useLocation();
  const page = pageAt(pages, pathname);
  return page ? <page.Component /> : null;
}
