import type { ComponentType } from 'react';
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
