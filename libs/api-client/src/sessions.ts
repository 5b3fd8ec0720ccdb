import type { EndedSessionsView, SessionView } from '@cbh/contracts';
import { api } from './api';

/** One's own sessions, and a user manager's "sign out everywhere" for an account. */
export const sessionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSessions: build.query<SessionView[], void>({ query: () => '/sessions', providesTags: ['Sessions'] }),
    /** Ends one of one's sessions by its id; ending the current one signs out, which the account's refetch shows. */
    endSession: build.mutation<void, string>({
      query: (id) => ({ url: `/sessions/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Sessions', 'AuthUser'],
    }),
    /** Signs out everywhere else. */
    endOtherSessions: build.mutation<EndedSessionsView, void>({
      query: () => ({ url: '/sessions/others', method: 'DELETE' }),
      invalidatesTags: ['Sessions'],
    }),
    /** Ends every session of an account (user_management). */
    endUserSessions: build.mutation<EndedSessionsView, string>({
      query: (userId) => ({ url: `/users/${userId}/sessions`, method: 'DELETE' }),
      invalidatesTags: ['Sessions', 'Audit'],
    }),
  }),
});

export const { useGetSessionsQuery, useEndSessionMutation, useEndOtherSessionsMutation, useEndUserSessionsMutation } = sessionsApi;
