/**
 * Test-only: a pass-through spy on @cbh/ui's toast, to count and read what a screen notifies; cleared before each
 * test. jest.mock is hoisted above this file's import, so every module that imports @cbh/ui after this one gets the
 * spy: a spec imports this before its screens. Imported by *.spec.tsx files only.
 */
import { toast } from '@cbh/ui';

jest.mock('@cbh/ui', () => {
  const actual = jest.requireActual('@cbh/ui');
  return { ...actual, toast: jest.fn(actual.toast) };
});

export const toastSpy = toast as jest.MockedFunction<typeof toast>;

beforeEach(() => toastSpy.mockClear());
