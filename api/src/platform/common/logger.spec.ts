import { withoutTokens } from './logger';

it('logs the URLs of single-use links without their tokens', () => {
  expect(withoutTokens('/api/invitations/abc_DEF-123?x=1')).toBe('/api/invitations/[token]?x=1');
  expect(withoutTokens('/api/auth/elevate/verify/s3cr3t')).toBe('/api/auth/elevate/verify/[token]');
  expect(withoutTokens('/api/users/7')).toBe('/api/users/7');
});

it('logs a token sent in the query (refused) without it', () => {
  expect(withoutTokens('/api/users?access_token=cbh_secret&x=1')).toBe('/api/users?access_token=[token]&x=1');
  expect(withoutTokens('/metrics?TOKEN=cbh_secret')).toBe('/metrics?TOKEN=[token]');
});

it('logs an acknowledge link, a subscription link and a calendar address without what acts as their credential', () => {
  expect(withoutTokens('/api/public/acknowledge?code=7.cabc.MAC')).toBe('/api/public/acknowledge?code=[token]');
  expect(withoutTokens('/status/payments/confirm?code=1.2.MAC')).toBe('/status/payments/confirm?code=[token]');
  expect(withoutTokens('/api/public/on-call/ocf_secret.ics')).toBe('/api/public/on-call/[token]');
});
