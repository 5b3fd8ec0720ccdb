/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { render, screen } from '@testing-library/react';
import { App } from './App';

// the store's code cannot be fetched (a network error, a deploy that removed the file)
jest.mock('./ConnectedShell', () => {
  throw new Error('Loading chunk 16 failed');
});

it('says the site could not be loaded, with Reload, when the store’s code cannot be fetched', async () => {
  window.history.pushState({}, '', '/');
  const manifest = { remotes: [{ name: 'mfe_learning', entry: '/remotes/mfe-learning/mf-manifest.json', routes: ['/'] }] };
  render(<App manifest={manifest} session={null} />);
  expect(await screen.findByRole('heading', { name: 'The site could not be loaded' })).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Login' })).toBeTruthy();
});
