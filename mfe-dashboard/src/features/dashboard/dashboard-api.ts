import { api } from '@cbh/api-client';
import type { ActivityEntry, DashboardHealth, DashboardStats } from '@cbh/contracts';

/** Stats and activity are cached for 30 s. */
const CACHE_SECONDS = 30;
/** The health overview is read again this often while it is shown, for moves no live message reports (a service's instances). */
export const HEALTH_POLL_MS = 30_000;

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    // counts of breakers and domains: read again when those change
    getDashboardStats: build.query<DashboardStats, void>({
      query: () => '/dashboard/stats',
      keepUnusedDataFor: CACHE_SECONDS,
      providesTags: ['Breakers', 'Domains'],
    }),
    // the audit log's latest entries
    getDashboardActivity: build.query<ActivityEntry[], void>({
      query: () => '/dashboard/activity',
      keepUnusedDataFor: CACHE_SECONDS,
      providesTags: ['Audit'],
    }),
    // breakers open now and their moves: read again when a breaker moves (stateChange refreshes 'Metrics') or changes
    getDashboardHealth: build.query<DashboardHealth, void>({
      query: () => '/dashboard/health',
      keepUnusedDataFor: CACHE_SECONDS,
      providesTags: ['Breakers', 'Metrics'],
    }),
  }),
});

export const { useGetDashboardStatsQuery, useGetDashboardActivityQuery, useGetDashboardHealthQuery } = dashboardApi;
export const REFETCH_AFTER_SECONDS = CACHE_SECONDS;
