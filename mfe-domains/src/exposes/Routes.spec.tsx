/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { routesOf } from '@cbh/contracts';
import { pages } from './Routes';

it('renders exactly the pages the route table gives mfe_domains, in its order', () => {
  expect(pages.map((page) => page.path)).toEqual(routesOf('mfe_domains').map((route) => route.path));
});
