import type { ComponentType } from 'react';
import { PATTERN_DEMOS, patternPath } from '@cbh/contracts';
import { RoutePages } from '@cbh/router';
import { CqrsPage } from '../features/cqrs/CqrsPage';
import { DddPage } from '../features/domain-driven-design/DddPage';
import { EventSourcingPage } from '../features/event-sourcing/EventSourcingPage';
import { HexagonalPage } from '../features/hexagonal/HexagonalPage';
import { MicroservicesPage } from '../features/microservices/MicroservicesPage';
import { SagaPage } from '../features/saga/SagaPage';

/** One page per demonstration of the route table (a new demonstration there fails the type check until it has one). */
const PAGES: Record<(typeof PATTERN_DEMOS)[number]['slug'], ComponentType> = {
  cqrs: CqrsPage,
  'event-sourcing': EventSourcingPage,
  microservices: MicroservicesPage,
  saga: SagaPage,
  'domain-driven-design': DddPage,
  'hexagonal-architecture': HexagonalPage,
};

export const pages = PATTERN_DEMOS.map(({ slug }) => ({ path: patternPath(slug), Component: PAGES[slug] }));

export default function PatternsRoutes() {
  return <RoutePages pages={pages} />;
}
