import type { z } from 'zod';
import type { createScrapeTargetSchema, ScrapeTargetView, UpdateScrapeTarget } from '@cbh/contracts';
import { api } from './api';

/** A new target as POST takes it: without intervalSeconds the server's default applies. */
export type NewScrapeTarget = z.input<typeof createScrapeTargetSchema>;

/**
 * The Prometheus endpoints the hub scrapes, for holders of circuit_breaker_admin. A target's breakers are its
 * service's on the wall: renaming it renames their service, and deleting it deletes them.
 */
export const scrapeTargetsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getScrapeTargets: build.query<ScrapeTargetView[], void>({ query: () => '/scrape-targets', providesTags: ['ScrapeTargets'] }),
    createScrapeTarget: build.mutation<ScrapeTargetView, NewScrapeTarget>({
      query: (body) => ({ url: '/scrape-targets', method: 'POST', body }),
      invalidatesTags: ['ScrapeTargets'],
    }),
    updateScrapeTarget: build.mutation<ScrapeTargetView, UpdateScrapeTarget & { id: number }>({
      query: ({ id, ...body }) => ({ url: `/scrape-targets/${id}`, method: 'PATCH', body }),
      invalidatesTags: ['ScrapeTargets', 'Breakers'],
    }),
    deleteScrapeTarget: build.mutation<void, number>({
      query: (id) => ({ url: `/scrape-targets/${id}`, method: 'DELETE' }),
      invalidatesTags: ['ScrapeTargets', 'Breakers', 'Metrics'],
    }),
  }),
});

export const { useGetScrapeTargetsQuery, useCreateScrapeTargetMutation, useUpdateScrapeTargetMutation, useDeleteScrapeTargetMutation } =
  scrapeTargetsApi;
