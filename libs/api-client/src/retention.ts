import type { PruneResultView, RetentionSettings, RetentionView } from '@cbh/contracts';
import { api } from './api';

/** Data retention: how long each kind of history is kept, and pruning it now (system_admin). */
export const retentionApi = api.injectEndpoints({
  endpoints: (build) => ({
    getRetention: build.query<RetentionView, void>({ query: () => '/system/retention', providesTags: ['Retention'] }),
    updateRetention: build.mutation<RetentionView, Partial<RetentionSettings>>({
      query: (body) => ({ url: '/system/retention', method: 'PATCH', body }),
      invalidatesTags: ['Retention', 'Audit'],
    }),
    pruneRetention: build.mutation<PruneResultView, void>({
      query: () => ({ url: '/system/retention/prune', method: 'POST' }),
      invalidatesTags: ['Retention', 'Audit'],
    }),
  }),
});

export const { useGetRetentionQuery, useUpdateRetentionMutation, usePruneRetentionMutation } = retentionApi;
