import { userIdSchema } from './users';

describe('userIdSchema', () => {
  it('gives a user id its one spelling, lower case, and refuses what is no uuid', () => {
    expect(userIdSchema.parse('A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D')).toBe('a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d');
    expect(userIdSchema.safeParse('not-a-uuid').success).toBe(false);
  });
});
