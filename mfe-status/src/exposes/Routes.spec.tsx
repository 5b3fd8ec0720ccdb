/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { routesOf } from '@cbh/contracts';
import { pages } from './Routes';

it('renders exactly the pages the route table gives mfe_status, in its order', () => {
  expect(pages.map((page) => page.path)).toEqual(routesOf('mfe_status').map((route) => route.path));
});
