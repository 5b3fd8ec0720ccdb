import { api } from '@cbh/api-client';

/** POST /api/account/on-call-feed: a new secret address of one's calendar of shifts (the old one stops working). */
export interface ShiftFeedAddress {
  url: string;
}

/*
 * Each person's calendar of their own shifts. @cbh/api-client has no hooks for it yet, so they are added here as the
 * dashboard's other screen-only calls are (dashboard-api.ts); they belong beside the schedules' in
 * libs/api-client/src/on-call.ts. Nothing is cached: the hub keeps only the address's hash and cannot show it again.
 */
export const shiftFeedApi = api.injectEndpoints({
  endpoints: (build) => ({
    makeShiftFeed: build.mutation<ShiftFeedAddress, void>({ query: () => ({ url: '/account/on-call-feed', method: 'POST' }) }),
    revokeShiftFeed: build.mutation<void, void>({ query: () => ({ url: '/account/on-call-feed', method: 'DELETE' }) }),
  }),
});

export const { useMakeShiftFeedMutation, useRevokeShiftFeedMutation } = shiftFeedApi;
