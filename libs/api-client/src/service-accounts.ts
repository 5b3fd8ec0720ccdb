import type { ApiTokenView, CreatedApiTokenView, Permission, Role, ServiceAccountView } from '@cbh/contracts';
import { api } from './api';

/** Service accounts and their access tokens, for user managers. */
export const serviceAccountsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getServiceAccounts: build.query<ServiceAccountView[], void>({ query: () => '/service-accounts', providesTags: ['ServiceAccounts'] }),
    createServiceAccount: build.mutation<ServiceAccountView, { name: string; role: Role }>({
      query: (body) => ({ url: '/service-accounts', method: 'POST', body }),
      invalidatesTags: ['ServiceAccounts', 'Audit'],
    }),
    updateServiceAccount: build.mutation<
      ServiceAccountView,
      { id: string; isActive?: boolean; role?: Role; permissions?: readonly Permission[] }
    >({
      query: ({ id, ...body }) => ({ url: `/service-accounts/${id}`, method: 'PATCH', body }),
      invalidatesTags: ['ServiceAccounts', 'Audit'],
    }),
    deleteServiceAccount: build.mutation<void, string>({
      query: (id) => ({ url: `/service-accounts/${id}`, method: 'DELETE' }),
      invalidatesTags: ['ServiceAccounts', 'Audit'],
    }),
    getServiceAccountTokens: build.query<ApiTokenView[], string>({
      query: (id) => `/service-accounts/${id}/tokens`,
      providesTags: ['ServiceAccounts'],
    }),
    createServiceAccountToken: build.mutation<
      CreatedApiTokenView,
      { id: string; name: string; expiresInDays: number; permissions: readonly Permission[] }
    >({
      query: ({ id, ...body }) => ({ url: `/service-accounts/${id}/tokens`, method: 'POST', body }),
      invalidatesTags: ['ServiceAccounts', 'Audit'],
    }),
    revokeServiceAccountToken: build.mutation<void, { id: string; tokenId: string }>({
      query: ({ id, tokenId }) => ({ url: `/service-accounts/${id}/tokens/${tokenId}`, method: 'DELETE' }),
      invalidatesTags: ['ServiceAccounts', 'Audit'],
    }),
  }),
});

export const {
  useGetServiceAccountsQuery,
  useCreateServiceAccountMutation,
  useUpdateServiceAccountMutation,
  useDeleteServiceAccountMutation,
  useGetServiceAccountTokensQuery,
  useCreateServiceAccountTokenMutation,
  useRevokeServiceAccountTokenMutation,
} = serviceAccountsApi;
