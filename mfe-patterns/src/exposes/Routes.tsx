import type { ComponentType } from 'react';
import { PATTERN_DEMOS, patternPath } from '@cbh/contracts';
import { RoutePages } from '@cbh/router';
import { PatternDemoPage } from '../features/catalogue/PatternDemoPage';
import { CqrsPage } from '../features/cqrs/CqrsPage';
import { EventSourcingPage } from '../features/event-sourcing/EventSourcingPage';
import { DddPage } from '../features/domain-driven-design/DddPage';
import { HexagonalPage } from '../features/hexagonal/HexagonalPage';
import { SagaPage } from '../features/saga/SagaPage';

/** The demonstrations built so far; the others still show their title and summary. */
const BUILT: Partial<Record<(typeof PATTERN_DEMOS)[number]['slug'], ComponentType>> = {
  cqrs: CqrsPage,
  'event-sourcing': EventSourcingPage,
  saga: SagaPage,
  'hexagonal-architecture': HexagonalPage,
  'domain-driven-design': DddPage,
};

export const pages = PATTERN_DEMOS.map(({ slug, title, summary }) => ({
  path: patternPath(slug),
  Component: BUILT[slug] ?? (() => <PatternDemoPage title={title} summary={summary} />),
}));

export default function PatternsRoutes() {
  return <RoutePages pages={pages} />;
}
