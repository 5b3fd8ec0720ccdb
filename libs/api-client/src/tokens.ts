import type { ApiTokenView, CreatedApiTokenView, Permission } from '@cbh/contracts';
import { api } from './api';

/** The signed-in person's own personal access tokens. */
export const tokensApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTokens: build.query<ApiTokenView[], void>({ query: () => '/tokens', providesTags: ['Tokens'] }),
    createToken: build.mutation<CreatedApiTokenView, { name: string; expiresInDays: number; permissions: readonly Permission[] }>({
      query: (body) => ({ url: '/tokens', method: 'POST', body }),
      invalidatesTags: ['Tokens'],
    }),
    revokeToken: build.mutation<void, string>({
      query: (id) => ({ url: `/tokens/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Tokens'],
    }),
  }),
});

export const { useGetTokensQuery, useCreateTokenMutation, useRevokeTokenMutation } = tokensApi;
