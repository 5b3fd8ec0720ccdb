/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import { ROUTE_TABLE, canOpen } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { fakeApi } from '@cbh/test-support';
import { API_REFERENCE_PATH } from '../learning/SiteFooter';
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

it('links only where a signed-out visitor may go: sign-in, the API reference, its own sections and public pages', () => {
  renderLanding();
  const publicPaths = ROUTE_TABLE.filter((route) => canOpen(null, route)).map((route) => route.path);
  const refused = screen
    .getAllByRole('link')
    .map((link) => link.getAttribute('href')!)
    .filter((href) => href !== '/api/login' && href !== API_REFERENCE_PATH && !href.startsWith('#') && !publicPaths.includes(href));
  expect(refused).toEqual([]);
});

it("has no placeholder in its footer: every link goes to a page of the site or the API's reference", () => {
  renderLanding();
  const footer = within(document.querySelector('footer')!);
  const hrefs = footer.getAllByRole('link').map((link) => link.getAttribute('href'));
  const sitePaths = ROUTE_TABLE.filter((route) => !route.permission && !route.role).map((route) => route.path);
  expect(hrefs.length).toBeGreaterThanOrEqual(8);
  expect(hrefs.filter((href) => href !== API_REFERENCE_PATH && !sitePaths.includes(href!))).toEqual([]);
  expect(footer.getByRole('link', { name: 'API Reference' }).getAttribute('href')).toBe('/api/docs');
  expect(footer.queryByRole('link', { name: /Discord|Stack Overflow|Blog|GitHub/ })).toBeNull();
});
