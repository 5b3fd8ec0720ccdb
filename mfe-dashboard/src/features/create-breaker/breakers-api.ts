import { api } from '@cbh/api-client';
import type { BreakerConfigView, createBreakerSchema } from '@cbh/contracts';
import type { z } from 'zod';

export const breakersApi = api.injectEndpoints({
  endpoints: (build) => ({
    createBreaker: build.mutation<BreakerConfigView, z.input<typeof createBreakerSchema>>({
      query: (body) => ({ url: '/circuit-breakers', method: 'POST', body }),
      invalidatesTags: ['Breakers'],
    }),
  }),
});

export const { useCreateBreakerMutation } = breakersApi;
