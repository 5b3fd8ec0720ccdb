import type { z } from 'zod';
import type {
  ComponentOfBreaker,
  createIncidentSchema,
  createStatusPageSchema,
  IncidentStatus,
  IncidentView,
  StatusPageView,
  SubscriberView,
  UpdateStatusPage,
} from '@cbh/contracts';
import { api } from './api';

/** The body of POST /api/status-pages (what the API defaults may be left out). */
export type NewStatusPage = z.input<typeof createStatusPageSchema>;
/** The body of POST /api/status-pages/{id}/incidents. */
export type NewIncident = z.input<typeof createIncidentSchema>;

/** A page of a status page's incidents, newest first; `before` is the last listed incident's id. */
export interface IncidentListArgs {
  pageId: number;
  state?: 'open' | 'resolved';
  before?: number;
  limit?: number;
}

/*
 * Status pages, their incidents and subscribers, for holders of circuit_breaker_admin. A page's state is its worst
 * component's, and an open incident sets its components' states by hand: what opens, updates or resolves an incident
 * refreshes the pages too. A page's components name breakers, so a change to them refreshes the components a breaker's
 * page offers to open an incident on.
 */
export const statusPagesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getStatusPages: build.query<StatusPageView[], void>({ query: () => '/status-pages', providesTags: ['StatusPages'] }),
    getStatusPage: build.query<StatusPageView, number>({ query: (id) => `/status-pages/${id}`, providesTags: ['StatusPages'] }),
    createStatusPage: build.mutation<StatusPageView, NewStatusPage>({
      query: (body) => ({ url: '/status-pages', method: 'POST', body }),
      invalidatesTags: ['StatusPages', 'StatusComponents'],
    }),
    /** Any of its fields; `components` replaces the list (each kept component by its name). */
    updateStatusPage: build.mutation<StatusPageView, UpdateStatusPage & { id: number }>({
      query: ({ id, ...body }) => ({ url: `/status-pages/${id}`, method: 'PATCH', body }),
      invalidatesTags: ['StatusPages', 'StatusComponents'],
    }),
    deleteStatusPage: build.mutation<void, number>({
      query: (id) => ({ url: `/status-pages/${id}`, method: 'DELETE' }),
      invalidatesTags: ['StatusPages', 'StatusComponents', 'StatusIncidents', 'StatusSubscribers'],
    }),

    getStatusIncidents: build.query<IncidentView[], IncidentListArgs>({
      query: ({ pageId, ...params }) => ({ url: `/status-pages/${pageId}/incidents`, params }),
      providesTags: ['StatusIncidents'],
    }),
    createIncident: build.mutation<IncidentView, NewIncident & { pageId: number }>({
      query: ({ pageId, ...body }) => ({ url: `/status-pages/${pageId}/incidents`, method: 'POST', body }),
      invalidatesTags: ['StatusIncidents', 'StatusPages'],
    }),
    postIncidentUpdate: build.mutation<IncidentView, { pageId: number; incidentId: number; status: IncidentStatus; message: string }>({
      query: ({ pageId, incidentId, ...body }) => ({
        url: `/status-pages/${pageId}/incidents/${incidentId}/updates`,
        method: 'POST',
        body,
      }),
      invalidatesTags: ['StatusIncidents', 'StatusPages'],
    }),

    getStatusSubscribers: build.query<SubscriberView[], number>({
      query: (pageId) => `/status-pages/${pageId}/subscribers`,
      providesTags: ['StatusSubscribers'],
    }),
    deleteStatusSubscriber: build.mutation<void, { pageId: number; subscriberId: number }>({
      query: ({ pageId, subscriberId }) => ({ url: `/status-pages/${pageId}/subscribers/${subscriberId}`, method: 'DELETE' }),
      invalidatesTags: ['StatusSubscribers'],
    }),

    /** The components, on every status page, that include a breaker. */
    getComponentsOfBreaker: build.query<ComponentOfBreaker[], number>({
      query: (breaker) => ({ url: '/status-components', params: { breaker } }),
      providesTags: ['StatusComponents'],
    }),
  }),
});

export const {
  useGetStatusPagesQuery,
  useGetStatusPageQuery,
  useCreateStatusPageMutation,
  useUpdateStatusPageMutation,
  useDeleteStatusPageMutation,
  useGetStatusIncidentsQuery,
  useCreateIncidentMutation,
  usePostIncidentUpdateMutation,
  useGetStatusSubscribersQuery,
  useDeleteStatusSubscriberMutation,
  useGetComponentsOfBreakerQuery,
} = statusPagesApi;
