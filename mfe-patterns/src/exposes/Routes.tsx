import type { ComponentType } from 'react';
import { PATTERN_DEMOS, patternPath } from '@cbh/contracts';
import { lazyPage, RoutePages } from '@cbh/router';

/** One page per demonstration of the route table (a new demonstration there fails the type check until it has one). */
const PAGES: Record<(typeof PATTERN_DEMOS)[number]['slug'], ComponentType> = {
  cqrs: lazyPage(
    () => import('../features/cqrs/CqrsPage'),
    (m) => m.CqrsPage,
  ),
  'event-sourcing': lazyPage(
    () => import('../features/event-sourcing/EventSourcingPage'),
    (m) => m.EventSourcingPage,
  ),
  microservices: lazyPage(
    () => import('../features/microservices/MicroservicesPage'),
    (m) => m.MicroservicesPage,
  ),
  saga: lazyPage(
    () => import('../features/saga/SagaPage'),
    (m) => m.SagaPage,
  ),
  'domain-driven-design': lazyPage(
    () => import('../features/domain-driven-design/DddPage'),
    (m) => m.DddPage,
  ),
  'hexagonal-architecture': lazyPage(
    () => import('../features/hexagonal/HexagonalPage'),
    (m) => m.HexagonalPage,
  ),
};

export const pages = PATTERN_DEMOS.map(({ slug }) => ({ path: patternPath(slug), Component: PAGES[slug] }));

export default function PatternsRoutes() {
  return <RoutePages pages={pages} />;
}
