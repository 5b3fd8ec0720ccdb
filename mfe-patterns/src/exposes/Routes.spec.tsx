/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { routesOf } from '@cbh/contracts';
import { pages } from './Routes';

it('renders exactly the pages the route table gives mfe_patterns, in its order', () => {
  expect(pages.map((page) => page.path)).toEqual(routesOf('mfe_patterns').map((route) => route.path));
});
