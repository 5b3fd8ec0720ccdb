import { configureStore } from '@reduxjs/toolkit';
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';

/** A query's argument that skips the query; screens take it from here, as RTK reaches them only through this library. */
export { skipToken } from '@reduxjs/toolkit/query/react';
import type { AuthUser } from '@cbh/contracts';

/**
 * The one RTK Query api of the site. The shell creates the store; remotes add their endpoints with
 * api.injectEndpoints, so every screen shares one cache (the library is a federation singleton).
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: fetchBaseQuery({ baseUrl: '/api', credentials: 'include' }),
  /** Refreshed when a live message says they changed (see live.ts). */
  tagTypes: [
    'Metrics',
    'Breakers',
    'Journal',
    'Services',
    'TestSessions',
    'Users',
    'Audit',
    'AuthUser',
    'Domains',
    'DomainChecks',
    'Retention',
    'Tokens',
    'ServiceAccounts',
    'Sessions',
    'Organization',
    'NotificationChannels',
    'NotificationRules',
    'MaintenanceWindows',
    'NotificationDeliveries',
    'BreakerInstances',
    'ScrapeTargets',
    'Releases',
    'StatusPages',
    'StatusComponents',
    'StatusIncidents',
    'StatusSubscribers',
    'AlertGroups',
    'EscalationPolicies',
    'Schedules',
    'ContactMethods',
    'BreakerDependencies',
    'Slos',
    'Drills',
  ],
  endpoints: (build) => ({
    /** The signed-in account, or null when signed out (401). */
    getAuthUser: build.query<AuthUser | null, void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const result = await baseQuery('/auth/user');
        if (result.error?.status === 401) return { data: null };
        if (result.error) return { error: result.error };
        return { data: result.data as AuthUser };
      },
      providesTags: ['AuthUser'],
    }),
  }),
});

export const { useGetAuthUserQuery } = api;

export function createAppStore() {
  return configureStore({
    reducer: { [api.reducerPath]: api.reducer },
    // The store holds RTK Query's cache alone, written through immer from JSON: the development checks for mutation and
    // non-serialisable values can find nothing there, yet walked the whole cache on every dispatch (40–110 ms each on
    // a busy machine with the metrics of a wall), which made screens and their tests slow in development only.
    middleware: (getDefault) => getDefault({ immutableCheck: false, serializableCheck: false }).concat(api.middleware),
  });
}
export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
