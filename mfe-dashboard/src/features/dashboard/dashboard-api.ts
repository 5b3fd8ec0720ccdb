import { api } from '@cbh/api-client';
import type { ActivityEntry, DashboardStats } from '@cbh/contracts';

/** Stats and activity are cached for 30 s. */
const CACHE_SECONDS = 30;

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
  }),
});

export const { useGetDashboardStatsQuery, useGetDashboardActivityQuery } = dashboardApi;
export const REFETCH_AFTER_SECONDS = CACHE_SECONDS;
