/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import type { AuthUser, RemotesManifest } from '@cbh/contracts';
import { firstRemoteShown } from './first-page';
import { forgetReturnPath, rememberReturnPath } from './session/return-path';

const dashboard = {
  name: 'mfe_dashboard',
  entry: '/remotes/mfe-dashboard/mf-manifest.json',
  routes: ['/dashboard', '/circuit-breakers/:id'],
};
const learning = { name: 'mfe_learning', entry: '/remotes/mfe-learning/mf-manifest.json', routes: ['/'] };
const manifest: RemotesManifest = { remotes: [dashboard, learning] };
const user = { id: 'u1', email: 'a@example.com' } as unknown as AuthUser;

afterEach(() => forgetReturnPath());

it("is the remote of the page a signed-in visitor opens, its routes' parameters matched", () => {
  expect(firstRemoteShown(manifest, user, '/dashboard')).toBe(dashboard);
  expect(firstRemoteShown(manifest, user, '/circuit-breakers/b-17')).toBe(dashboard);
  expect(firstRemoteShown(manifest, user, '/no-such-page')).toBeUndefined();
});

it('is none for a signed-out visitor on a page for signed-in people (asked to sign in), and the public page otherwise', () => {
  expect(firstRemoteShown(manifest, null, '/dashboard')).toBeUndefined();
  expect(firstRemoteShown(manifest, null, '/')).toBe(learning);
});

it('is none when the session is not known, or a visitor just signed in is sent on to the page they had asked for', () => {
  expect(firstRemoteShown(manifest, undefined, '/dashboard')).toBeUndefined();
  expect(firstRemoteShown(manifest, user, '/')).toBe(learning);
  rememberReturnPath('/dashboard');
  expect(firstRemoteShown(manifest, user, '/')).toBeUndefined();
});
