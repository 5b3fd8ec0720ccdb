import type { OrganizationView } from '@cbh/contracts';
import { api } from './api';

export type OrganizationPatch = Partial<Omit<OrganizationView, 'id'>>;

/** The organisation and its settings (read by user managers and organisation admins, changed by the latter). */
export const organizationApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOrganizations: build.query<OrganizationView[], void>({ query: () => '/organizations', providesTags: ['Organization'] }),
    updateOrganization: build.mutation<OrganizationView, { id: string } & OrganizationPatch>({
      query: ({ id, ...body }) => ({ url: `/organizations/${id}`, method: 'PATCH', body }),
      invalidatesTags: ['Organization', 'Audit'],
    }),
  }),
});

export const { useGetOrganizationsQuery, useUpdateOrganizationMutation } = organizationApi;
