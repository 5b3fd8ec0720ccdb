import { api } from '@cbh/api-client';
import type { BreakerHistory, HistoryRange } from '@cbh/contracts';

/** A breaker's stored past; read again whenever the breaker moves (a live stateChange invalidates its journal). */
export const historyApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBreakerHistory: build.query<BreakerHistory, { id: number; range: HistoryRange }>({
      query: ({ id, range }) => ({ url: `/circuit-breakers/${id}/history`, params: { range } }),
      providesTags: (_result, _error, { id }) => [{ type: 'Journal', id }],
    }),
  }),
});

export const { useGetBreakerHistoryQuery } = historyApi;
