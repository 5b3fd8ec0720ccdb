import type { TestResultView } from '@cbh/contracts';

/**
 * The services section shows the first 4 services and keeps the 10 most recent results; continuous testing makes
 * one call per service every second.
 */
export const SERVICES_SHOWN = 4;
export const RESULTS_KEPT = 10;
export const CONTINUOUS_TEST_INTERVAL_MS = 1000;

/** A live testResult goes on top; the list keeps the latest 10. */
export function prependResult(results: TestResultView[], result: TestResultView): TestResultView[] {
  return [result, ...results].slice(0, RESULTS_KEPT);
}
