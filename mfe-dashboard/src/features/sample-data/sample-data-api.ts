import { api } from '@cbh/api-client';
import { SAMPLE_DATA_PATH, type SampleDataView } from '@cbh/contracts';

/** The path relative to the api's base (/api), which fetchBaseQuery puts in front. */
const URL = SAMPLE_DATA_PATH.replace(/^\/api/, '');

/**
 * What loading or removing the sample data changes: the wall and its figures, the dashboard's figures and activity,
 * services, domains, the notification lists, and the load tests that gave the sample breakers their history.
 */
const CHANGED = [
  'Breakers',
  'Metrics',
  'Journal',
  'Services',
  'TestSessions',
  'Domains',
  'DomainChecks',
  'NotificationChannels',
  'NotificationRules',
  'MaintenanceWindows',
  'NotificationDeliveries',
  'Audit',
] as const;

/**
 * The sample data a super admin may load into a hub and remove again. POST and DELETE answer with the new view,
 * which takes the place of the cached one; after a refusal (a 409 naming what could not go) it is read again.
 */
const viewApi = api.injectEndpoints({
  endpoints: (build) => ({
    sampleData: build.query<SampleDataView, void>({ query: () => URL }),
  }),
});

type Dispatch = (
  action: ReturnType<typeof viewApi.util.upsertQueryData> | ReturnType<typeof viewApi.endpoints.sampleData.initiate>,
) => unknown;

/** The mutation's answer takes the cached view's place; after a refusal the view is read again. */
async function replaceView(
  _arg: void,
  { dispatch, queryFulfilled }: { dispatch: Dispatch; queryFulfilled: Promise<{ data: SampleDataView }> },
) {
  try {
    const { data } = await queryFulfilled;
    dispatch(viewApi.util.upsertQueryData('sampleData', undefined, data));
  } catch {
    dispatch(viewApi.endpoints.sampleData.initiate(undefined, { forceRefetch: true, subscribe: false }));
  }
}

export const sampleDataApi = viewApi.injectEndpoints({
  endpoints: (build) => ({
    loadSampleData: build.mutation<SampleDataView, void>({
      query: () => ({ url: URL, method: 'POST' }),
      invalidatesTags: (_result, error) => (error ? [] : [...CHANGED]),
      onQueryStarted: replaceView,
    }),
    removeSampleData: build.mutation<SampleDataView, void>({
      query: () => ({ url: URL, method: 'DELETE' }),
      // a removal refused part way has still removed the rest
      invalidatesTags: [...CHANGED],
      onQueryStarted: replaceView,
    }),
  }),
});

export const { useSampleDataQuery, useLoadSampleDataMutation, useRemoveSampleDataMutation } = sampleDataApi;
