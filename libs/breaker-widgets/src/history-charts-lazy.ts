import { lazy } from 'react';

/**
 * The charts of a breaker's past, in a chunk of their own (with the history they read): only a breaker's page and the
 * load-test page draw them, and every page of the dashboard loads this library. Show it inside a Suspense.
 */
export const HistoryCharts = lazy(() => import('./HistoryCharts').then((module) => ({ default: module.HistoryCharts })));
export type { HistoryChartsProps } from './HistoryCharts';
