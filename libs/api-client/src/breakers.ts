import type { z } from 'zod';
import type {
  BreakerConfigView,
  BreakerCoreSettings,
  BreakerInstancesPage,
  BreakerStats,
  createBreakerSchema,
  JournalPage,
  ManualAction,
  ServiceView,
  TestResultView,
  TestSessionView,
  BreakerStateName,
} from '@cbh/contracts';
import { api } from './api';

/** Latest metrics refresh every 5 s, every 2 s in the services section. */
export const METRICS_REFRESH_MS = 5000;
export const SERVICES_SECTION_METRICS_REFRESH_MS = 2000;

/** Breakers, their metrics, services and load-test sessions: the reads and writes several screens share. */
export const breakersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBreakers: build.query<BreakerConfigView[], void>({ query: () => '/circuit-breakers', providesTags: ['Breakers'] }),
    createBreaker: build.mutation<BreakerConfigView, z.input<typeof createBreakerSchema>>({
      query: (body) => ({ url: '/circuit-breakers', method: 'POST', body }),
      invalidatesTags: ['Breakers', 'Metrics'],
    }),
    updateBreakerSettings: build.mutation<BreakerConfigView, { id: number; settings: BreakerCoreSettings }>({
      query: ({ id, settings }) => ({ url: `/circuit-breakers/${id}`, method: 'PATCH', body: settings }),
      invalidatesTags: ['Breakers'],
    }),
    /** An agent's breaker's settings in its library's words (only the numeric ones are changed here); the hub pushes them to every instance. */
    updateLibrarySettings: build.mutation<BreakerConfigView, { id: number; librarySettings: Record<string, number> }>({
      query: ({ id, librarySettings }) => ({ url: `/circuit-breakers/${id}`, method: 'PATCH', body: { librarySettings } }),
      invalidatesTags: ['Breakers'],
    }),
    deleteBreaker: build.mutation<void, number>({
      query: (id) => ({ url: `/circuit-breakers/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Breakers', 'Metrics'],
    }),
    /** Force open, force closed, disable or reset: acts on every replica and lands in the journal. */
    controlBreaker: build.mutation<BreakerConfigView, { id: number; action: ManualAction }>({
      query: ({ id, action }) => ({ url: `/circuit-breakers/${id}/${action}`, method: 'POST' }),
      invalidatesTags: (_result, _error, { id }) => ['Breakers', 'Metrics', { type: 'Journal', id }],
    }),
    /** One page of a breaker's transition journal, newest first; pass the previous page's nextBefore for older rows. */
    getBreakerJournal: build.query<JournalPage, { id: number; before?: number; limit?: number }>({
      query: ({ id, before, limit }) => ({ url: `/circuit-breakers/${id}/transitions`, params: { before, limit } }),
      providesTags: (_result, _error, { id }) => [{ type: 'Journal', id }],
    }),
    /** Filled from metricsUpdate messages as they arrive (see live.ts), so screens showing it need no polling. */
    getLatestMetrics: build.query<{ stats: BreakerStats[] }, void>({ query: () => '/metrics/latest', providesTags: ['Metrics'] }),
    /**
     * An agent's or scraped breaker's instances, each with its figures, live ones first. Read again on every
     * metricsUpdate (see live.ts), so the table moves with the page's live figures.
     */
    getBreakerInstances: build.query<BreakerInstancesPage, number>({
      query: (id) => `/circuit-breakers/${id}/instances`,
      providesTags: (_result, _error, id) => [{ type: 'BreakerInstances', id }],
    }),
    getServices: build.query<ServiceView[], void>({ query: () => '/services', providesTags: ['Services'] }),
    testService: build.mutation<TestResultView, number>({
      query: (id) => ({ url: `/services/${id}/test`, method: 'POST' }),
      invalidatesTags: ['Metrics'],
    }),
    /** The newest load tests of one breaker (at most 50). */
    getBreakerTestSessions: build.query<TestSessionView[], number>({
      query: (configId) => ({ url: '/test-sessions', params: { configId } }),
      providesTags: ['TestSessions'],
    }),
    getRunningTestSessions: build.query<TestSessionView[], void>({
      query: () => '/test-sessions?status=running',
      providesTags: ['TestSessions'],
    }),
    startTestSession: build.mutation<TestSessionView, { configId: number; failureRate: number; requestRate: number; duration: number }>({
      query: (body) => ({ url: '/test-sessions', method: 'POST', body }),
      invalidatesTags: ['TestSessions'],
    }),
    stopTestSession: build.mutation<TestSessionView, number>({
      query: (id) => ({ url: `/test-sessions/${id}/stop`, method: 'POST' }),
      invalidatesTags: ['TestSessions'],
    }),
  }),
});

export const {
  useGetBreakersQuery,
  useCreateBreakerMutation,
  useUpdateBreakerSettingsMutation,
  useUpdateLibrarySettingsMutation,
  useDeleteBreakerMutation,
  useControlBreakerMutation,
  useGetBreakerJournalQuery,
  useGetBreakerTestSessionsQuery,
  useGetLatestMetricsQuery,
  useGetBreakerInstancesQuery,
  useGetServicesQuery,
  useTestServiceMutation,
  useGetRunningTestSessionsQuery,
  useStartTestSessionMutation,
  useStopTestSessionMutation,
} = breakersApi;

/**
 * A service shows its breaker's state from the latest metrics (by its circuitBreakerConfigId); CLOSED with no
 * config id or no matching entry.
 */
export function stateOf(stats: BreakerStats[] | undefined, configId: number | null): BreakerStateName {
  if (configId === null) return 'CLOSED';
  return stats?.find((entry) => entry.configId === configId)?.state ?? 'CLOSED';
}
