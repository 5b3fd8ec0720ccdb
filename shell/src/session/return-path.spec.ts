/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { forgetReturnPath, isSitePath, peekReturnPath, rememberReturnPath, RETURN_PATH_TTL_MS } from './return-path';
import { accountPageAt, headingOf } from './sign-in-routes';

afterEach(() => forgetReturnPath());

describe('the way back after signing in', () => {
  it('keeps a page of the site with its query and hash until forgotten', () => {
    rememberReturnPath('/users?tab=audit#top', 1000);
    expect(peekReturnPath(2000)).toBe('/users?tab=audit#top');
    expect(peekReturnPath(3000)).toBe('/users?tab=audit#top');
    forgetReturnPath();
    expect(peekReturnPath(3000)).toBeNull();
  });

  it('is gone after a quarter of an hour', () => {
    rememberReturnPath('/dashboard', 0);
    expect(peekReturnPath(RETURN_PATH_TTL_MS)).toBe('/dashboard');
    expect(peekReturnPath(RETURN_PATH_TTL_MS + 1)).toBeNull();
  });

  it('never leads off the site nor to the API', () => {
    for (const path of ['//evil.example', '/\\evil.example', 'https://evil.example/', 'users', '/api/logout', '/api', ''])
      expect([path, isSitePath(path)]).toEqual([path, false]);
    rememberReturnPath('//evil.example', 0);
    expect(peekReturnPath(1)).toBeNull();
    window.sessionStorage.setItem('cbh.return-after-sign-in', JSON.stringify({ path: '//evil.example', at: 0 }));
    expect(peekReturnPath(1)).toBeNull();
    window.sessionStorage.setItem('cbh.return-after-sign-in', '{not json');
    expect(peekReturnPath(1)).toBeNull();
  });
});

describe('pages for signed-in people', () => {
  it('are the console, domains and accounts, and every page that names a permission or a role', () => {
    const at = (path: string) => accountPageAt(path)?.title ?? null;
    expect(at('/users')).toBe('User Management');
    expect(at('/dashboard')).toBe('Dashboard');
    expect(at('/circuit-breakers')).toBe('Circuit Breakers');
    expect(at('/circuit-breakers/12')).toBe('Circuit Breaker');
    expect(at('/circuit-breakers/new')).toBe('Create Circuit Breaker');
    expect(at('/domains')).toBe('Domains');
    expect(at('/account')).toBe('Account');
    expect(at('/core-logic')).toBe('Core Logic');
    expect(headingOf(accountPageAt('/domains')!)).toBe('Domain Management');
    expect(headingOf(accountPageAt('/elevate')!)).toBe('Privilege Elevation');
    expect(headingOf(accountPageAt('/users')!)).toBe('User Management');
    for (const open of ['/', '/services/core', '/services/data-access', '/patterns/saga', '/nowhere', '/services/cache'])
      expect([open, at(open)]).toEqual([open, null]);
  });
});
