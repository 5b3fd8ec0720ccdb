/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import { ROUTE_TABLE, canOpen } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { fakeApi } from '@cbh/test-support';
import { LandingPage } from './LandingPage';

function renderLanding() {
  fakeApi({});
  render(
    <Provider store={createAppStore()}>
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>
    </Provider>,
  );
}

it('advertises audit trails among its features, without a link a visitor could not follow', () => {
  renderLanding();
  const features = within(screen.getByRole('list', { name: 'Features' }));
  expect(features.getAllByRole('listitem').filter((item) => /^Audit trails\b/.test(item.textContent ?? ''))).toHaveLength(1);
  expect(features.queryAllByRole('link')).toEqual([]);
});

it('links only where a signed-out visitor may go: sign-in, its own sections, placeholders and public pages', () => {
  renderLanding();
  const publicPaths = ROUTE_TABLE.filter((route) => canOpen(null, route)).map((route) => route.path);
  const refused = screen
    .getAllByRole('link')
    .map((link) => link.getAttribute('href')!)
    .filter((href) => href !== '/api/login' && !href.startsWith('#') && !publicPaths.includes(href));
  expect(refused).toEqual([]);
});
