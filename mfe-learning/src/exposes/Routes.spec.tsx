/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { routesOf } from '@cbh/contracts';
import { pages } from './Routes';

it('renders exactly the pages the route table gives mfe_learning, in its order', () => {
  expect(pages.map((page) => page.path)).toEqual(routesOf('mfe_learning').map((route) => route.path));
});
