import { PATTERN_DEMOS, patternPath } from '@cbh/contracts';
import { RoutePages } from '@cbh/router';
import { PatternDemoPage } from '../features/catalogue/PatternDemoPage';

export const pages = PATTERN_DEMOS.map(({ slug, title, summary }) => ({
  path: patternPath(slug),
  Component: () => <PatternDemoPage title={title} summary={summary} />,
}));

export default function PatternsRoutes() {
  return <RoutePages pages={pages} />;
}
