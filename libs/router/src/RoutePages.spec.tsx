/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Suspense } from 'react';
import { lazyPages, RoutePages } from './RoutePages';

const page = (text: string) => jest.fn(async () => () => <h1>{text}</h1>);

it("fetches the code of the page at the given path as the pages are made, and only that page's", () => {
  const create = page('New breaker');
  const detail = page('A breaker');
  const wall = page('The wall');
  lazyPages(
    [
      { path: '/circuit-breakers', load: wall },
      { path: '/circuit-breakers/new', load: create },
      { path: '/circuit-breakers/:id', load: detail },
    ],
    '/circuit-breakers/new',
  );
  expect(create).toHaveBeenCalledTimes(1);
  expect(detail).not.toHaveBeenCalled();
  expect(wall).not.toHaveBeenCalled();
});

it('renders the page at the location from its code, fetched when it first renders', async () => {
  const wall = page('The wall');
  const pages = lazyPages([{ path: '/circuit-breakers', load: wall }], '/elsewhere');
  render(
    <MemoryRouter initialEntries={['/circuit-breakers']}>
      <Suspense fallback="Loading…">
        <RoutePages pages={pages} />
      </Suspense>
    </MemoryRouter>,
  );
  expect((await screen.findByRole('heading', { name: 'The wall' })).textContent).toBe('The wall');
  expect(wall).toHaveBeenCalledTimes(1);
});
