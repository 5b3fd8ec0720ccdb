import { bearerOf, cookieValue } from './http';

describe('cookieValue', () => {
  const header = 'theme=dark; cbh.sid=s%3Aabc.def;  cbh.sidx=other;\tlast=v=1 ';

  it.each([
    ['the first cookie', 'theme', 'dark'],
    ['one after a semicolon and a space', 'cbh.sid', 's%3Aabc.def'],
    ['one whose name another starts with, not confused with it', 'cbh.sidx', 'other'],
    ['one after a tab, its value kept whole with an "=" in it, without the trailing space', 'last', 'v=1'],
  ])('finds %s', (_case, name, value) => {
    expect(cookieValue(header, name)).toBe(value);
  });

  it('finds nothing for a name only a longer cookie starts with, a missing cookie or no header', () => {
    expect(cookieValue(header, 'cbh')).toBeUndefined();
    expect(cookieValue(header, 'missing')).toBeUndefined();
    expect(cookieValue(undefined, 'cbh.sid')).toBeUndefined();
    expect(cookieValue('', 'cbh.sid')).toBeUndefined();
  });

  it('takes an empty value as empty', () => {
    expect(cookieValue('a=; b=2', 'a')).toBe('');
  });
});

describe('bearerOf', () => {
  it("reads the token of any case of the scheme, '' for an empty one, nothing without the header or for another scheme", () => {
    expect(bearerOf('Bearer abc')).toBe('abc');
    expect(bearerOf('bearer   abc ')).toBe('abc');
    expect(bearerOf('Bearer')).toBe('');
    expect(bearerOf(undefined)).toBeUndefined();
    expect(bearerOf('Basic abc')).toBeUndefined();
  });
});
