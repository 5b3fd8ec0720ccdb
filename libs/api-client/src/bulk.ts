import type { BreakerBulkAction, BulkResult, DomainBulkAction } from '@cbh/contracts';
import { api } from './api';

/** Many breakers or domains at once: each item succeeds or fails on its own, and the answer lists each outcome. */
export const bulkApi = api.injectEndpoints({
  endpoints: (build) => ({
    bulkBreakers: build.mutation<BulkResult, { action: BreakerBulkAction; ids: readonly number[] }>({
      query: (body) => ({ url: '/circuit-breakers/bulk', method: 'POST', body }),
      invalidatesTags: ['Breakers', 'Metrics', 'Journal'],
    }),
    bulkDomains: build.mutation<BulkResult, { action: DomainBulkAction; ids: readonly number[] }>({
      query: (body) => ({ url: '/domains/bulk', method: 'POST', body }),
      invalidatesTags: ['Domains'],
    }),
  }),
});

export const { useBulkBreakersMutation, useBulkDomainsMutation } = bulkApi;
