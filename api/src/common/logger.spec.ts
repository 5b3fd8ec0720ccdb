import { withoutTokens } from './logger';

it('logs the URLs of single-use links without their tokens', () => {
  expect(withoutTokens('/api/invitations/abc_DEF-123?x=1')).toBe('/api/invitations/[token]?x=1');
  expect(withoutTokens('/api/auth/elevate/verify/s3cr3t')).toBe('/api/auth/elevate/verify/[token]');
  expect(withoutTokens('/api/users/7')).toBe('/api/users/7');
});
