import { PATTERN_DEMOS } from '@cbh/contracts';
import { RoutePages } from '@cbh/ui';
import { PatternDemoPage } from '../features/catalogue/PatternDemoPage';

const pages = PATTERN_DEMOS.map(({ slug, title, summary }) => ({
  path: `/patterns/${slug}`,
  Component: () => <PatternDemoPage title={title} summary={summary} />,
}));

export default function PatternsRoutes() {
  return <RoutePages pages={pages} />;
}
