import { api } from '@cbh/api-client';
import { TOTAL_COUNT_HEADER, type UserSummary, type UsersQuery, type UserView } from '@cbh/contracts';

/** A page of accounts and how many match the search in all. */
export interface UsersPage {
  users: UserView[];
  total: number;
}

/** The accounts a page at a time (searched by the server) and the figures over all of them. */
const usersPageApi = api.injectEndpoints({
  endpoints: (build) => ({
    getUsersPage: build.query<UsersPage, UsersQuery>({
      query: (params) => ({ url: '/users', params }),
      transformResponse: (users: UserView[], meta) => {
        const total = Number(meta?.response?.headers.get(TOTAL_COUNT_HEADER) ?? Number.NaN);
        return { users, total: Number.isFinite(total) ? total : users.length };
      },
      providesTags: ['Users'],
    }),
    getUserSummary: build.query<UserSummary, void>({ query: () => '/users/summary', providesTags: ['Users'] }),
  }),
});

export const { useGetUsersPageQuery, useGetUserSummaryQuery } = usersPageApi;
