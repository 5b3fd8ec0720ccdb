import { failureText } from './api-error';

const refused = (message: string) => ({ status: 409, data: { statusCode: 409, error: 'Conflict', message } });

it("adds the server's reason to the product's words as a second sentence", () => {
  expect(failureText('Failed to invite user.', refused('A user with the e-mail ada@example.com already exists'))).toBe(
    'Failed to invite user. A user with the e-mail ada@example.com already exists.',
  );
  expect(failureText('Not done', refused('Nothing to do!'))).toBe('Not done. Nothing to do!');
});

it("gives the product's words alone, or with the fallback reason, when the server gave none", () => {
  const unreachable = { status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' };
  expect(failureText('Failed to update user.', unreachable)).toBe('Failed to update user.');
  expect(failureText('Failed to update user.', undefined)).toBe('Failed to update user.');
  expect(failureText('Not done.', unreachable, 'The hub could not be reached; try again')).toBe(
    'Not done. The hub could not be reached; try again.',
  );
});
