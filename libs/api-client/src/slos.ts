import type { CreateSlo, SloDetailView, SloListQuery, SloView, UpdateSlo } from '@cbh/contracts';
import { api } from './api';

/** The month's report of an SLO (a printable page, or CSV): a browser navigation, so a link rather than a query. */
export function sloReportUrl(id: number, month: string, format: 'html' | 'csv'): string {
  return `/api/slos/${id}/report?month=${month}&format=${format}`;
}

/** An SLO's figures move with each minute's counts: its screens read them again this often while in view. */
export const SLO_POLL_MS = 60_000;

/*
 * Service level objectives: read with circuit_breaker_view (a domain's only with domain_management), kept by
 * circuit_breaker_admin. Every change refreshes every list and page of them: an objective's figures (its SLI, budget
 * and burn rates) are computed by the API, so what a save changed is read again rather than patched in.
 */
export const slosApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Every objective, or a service's, or those a breaker feeds. */
    getSlos: build.query<SloView[], SloListQuery | void>({
      query: (params) => ({ url: '/slos', params: params ?? {} }),
      providesTags: ['Slos'],
    }),
    getSlo: build.query<SloDetailView, number>({
      query: (id) => `/slos/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Slos', id }],
    }),
    createSlo: build.mutation<SloView, CreateSlo>({
      query: (body) => ({ url: '/slos', method: 'POST', body }),
      invalidatesTags: ['Slos'],
    }),
    updateSlo: build.mutation<SloView, UpdateSlo & { id: number }>({
      query: ({ id, ...body }) => ({ url: `/slos/${id}`, method: 'PATCH', body }),
      invalidatesTags: ['Slos'],
    }),
    deleteSlo: build.mutation<void, number>({
      query: (id) => ({ url: `/slos/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Slos'],
    }),
  }),
});

export const { useGetSlosQuery, useGetSloQuery, useCreateSloMutation, useUpdateSloMutation, useDeleteSloMutation } = slosApi;
