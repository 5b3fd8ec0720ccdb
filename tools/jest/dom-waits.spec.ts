/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { getConfig } from '@testing-library/react';

it('gives component tests’ waits 5 s, for a render on a busy machine', () => {
  expect(getConfig().asyncUtilTimeout).toBe(5000);
});
