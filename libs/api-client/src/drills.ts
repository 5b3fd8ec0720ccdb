import type { CreateDrill, DrillDefinitionView, DrillDetailView, DrillView } from '@cbh/contracts';
import { api } from './api';

/*
 * Resilience drills, all for holders of circuit_breaker_admin: the list (newest first), one drill with its timeline,
 * starting one, stopping one or every running one. A drill changes by itself while it runs (a fault reaches an
 * instance, an expectation is judged, its last step ends): a live drillChanged reads the list and every drill again
 * (see live.ts), so its screens need no polling.
 */
export const drillsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDrills: build.query<DrillView[], void>({ query: () => '/drills', providesTags: ['Drills'] }),
    getDrill: build.query<DrillDetailView, number>({
      query: (id) => `/drills/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Drills', id }],
    }),
    /** Starts at once: refused with 403 when the sign-in is older than DRILL_LIMITS.recentSignInMinutes. */
    startDrill: build.mutation<DrillView, CreateDrill>({
      query: (body) => ({ url: '/drills', method: 'POST', body }),
      invalidatesTags: ['Drills'],
    }),
    stopDrill: build.mutation<DrillView, number>({
      query: (id) => ({ url: `/drills/${id}/stop`, method: 'POST' }),
      invalidatesTags: ['Drills'],
    }),
    /** Drills saved in the configuration document, by name; each is started as it stands (its breakers by name). */
    getDrillDefinitions: build.query<DrillDefinitionView[], void>({ query: () => '/drill-definitions', providesTags: ['Drills'] }),
    /** Starts a saved drill at once, with the checks of any start (the recent sign-in, one drill per breaker). */
    runDrillDefinition: build.mutation<DrillView, number>({
      query: (id) => ({ url: `/drill-definitions/${id}/run`, method: 'POST' }),
      invalidatesTags: ['Drills'],
    }),
    /** The kill switch: every running drill, whoever started it. */
    stopAllDrills: build.mutation<{ stopped: number }, void>({
      query: () => ({ url: '/drills/stop-all', method: 'POST' }),
      invalidatesTags: ['Drills'],
    }),
  }),
});

export const {
  useGetDrillsQuery,
  useGetDrillQuery,
  useStartDrillMutation,
  useStopDrillMutation,
  useStopAllDrillsMutation,
  useGetDrillDefinitionsQuery,
  useRunDrillDefinitionMutation,
} = drillsApi;
