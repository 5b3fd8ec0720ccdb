/**
 * How long Testing Library's findBy and waitFor wait in component tests: 5 s instead of its 1 s.
 *
 * Their wait is for a render, not a measure of its speed: benchmarks measure speed, tests do not. A page's first render
 * in jsdom costs real CPU (React's development build, styled-components' rules parsed by jsdom, Radix's computed
 * styles): on a two-core machine, Domain Management's first render took 350 ms in a process alone, 660–790 ms beside
 * one other busy process, and more than 1 s with the whole suite running (two jest workers, PostgreSQL and the API
 * tests' servers). A wait that is met still returns as soon as it is met; only a failing one takes longer to say so.
 * This file runs for every jsdom test file (the guard leaves the API's node ones alone).
 */
if (typeof document !== 'undefined') {
  require('@testing-library/react').configure({ asyncUtilTimeout: 5000 });
}
