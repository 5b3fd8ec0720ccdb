import type { z } from 'zod';
import type {
  AlertGroupDetailView,
  AlertGroupPage,
  AlertGroupQuery,
  AlertGroupSummary,
  BreakerDependencies,
  BreakerDependenciesView,
  ContactMethodView,
  CreateContactMethod,
  createEscalationPolicySchema,
  createScheduleSchema,
  EscalationPolicyView,
  OnCallPerson,
  ResponseTimesView,
  ScheduleView,
  UpdateSchedule,
} from '@cbh/contracts';
import { api } from './api';

/** The body of POST /api/escalation-policies (`repeat` may be left out). */
export type NewEscalationPolicy = z.input<typeof createEscalationPolicySchema>;
/** The body of POST /api/schedules (the lists may be left out). */
export type NewSchedule = z.input<typeof createScheduleSchema>;

/** One stretch of a schedule between two moments: who is on call from `start` to `end` (null: nobody). */
export interface ShiftView {
  start: string;
  end: string;
  user: OnCallPerson | null;
}

/*
 * On call: alert groups (read with circuit_breaker_view, acted on with circuit_breaker_operate; a domain's groups
 * also need domain_management), escalation policies and schedules (kept by circuit_breaker_admin), each person's
 * contact methods, and what a breaker depends on. Live alertGroupChanged messages refetch the groups.
 */
export const onCallApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAlertGroups: build.query<AlertGroupPage, Partial<AlertGroupQuery>>({
      query: (params) => ({ url: '/alert-groups', params }),
      providesTags: ['AlertGroups'],
    }),
    getAlertGroup: build.query<AlertGroupDetailView, number>({
      query: (id) => `/alert-groups/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'AlertGroups', id }],
    }),
    getAlertGroupSummary: build.query<AlertGroupSummary, void>({ query: () => '/alert-groups/summary', providesTags: ['AlertGroups'] }),
    getResponseTimes: build.query<ResponseTimesView, { days?: number } | void>({
      query: (params) => ({ url: '/alert-groups/response-times', params: params ?? {} }),
      providesTags: ['AlertGroups'],
    }),
    acknowledgeAlertGroup: build.mutation<AlertGroupDetailView, number>({
      query: (id) => ({ url: `/alert-groups/${id}/acknowledge`, method: 'POST' }),
      invalidatesTags: ['AlertGroups'],
    }),
    unacknowledgeAlertGroup: build.mutation<AlertGroupDetailView, number>({
      query: (id) => ({ url: `/alert-groups/${id}/unacknowledge`, method: 'POST' }),
      invalidatesTags: ['AlertGroups'],
    }),
    resolveAlertGroup: build.mutation<AlertGroupDetailView, number>({
      query: (id) => ({ url: `/alert-groups/${id}/resolve`, method: 'POST' }),
      invalidatesTags: ['AlertGroups'],
    }),
    silenceAlertGroup: build.mutation<AlertGroupDetailView, { id: number; minutes: number }>({
      query: ({ id, minutes }) => ({ url: `/alert-groups/${id}/silence`, method: 'POST', body: { minutes } }),
      invalidatesTags: ['AlertGroups'],
    }),

    getEscalationPolicies: build.query<EscalationPolicyView[], void>({
      query: () => '/escalation-policies',
      providesTags: ['EscalationPolicies'],
    }),
    createEscalationPolicy: build.mutation<EscalationPolicyView, NewEscalationPolicy>({
      query: (body) => ({ url: '/escalation-policies', method: 'POST', body }),
      invalidatesTags: ['EscalationPolicies'],
    }),
    updateEscalationPolicy: build.mutation<EscalationPolicyView, Partial<NewEscalationPolicy> & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/escalation-policies/${id}`, method: 'PATCH', body }),
      invalidatesTags: ['EscalationPolicies'],
    }),
    deleteEscalationPolicy: build.mutation<void, string>({
      query: (id) => ({ url: `/escalation-policies/${id}`, method: 'DELETE' }),
      invalidatesTags: ['EscalationPolicies'],
    }),

    /** Active persons a schedule or policy may name (circuit_breaker_admin or _operate; not the user list). */
    getOnCallPeople: build.query<OnCallPerson[], void>({ query: () => '/on-call/people', providesTags: ['Users'] }),
    /** The signed-in person's calendar address of their shifts: made anew (revoking the old) or revoked, in a session. */
    makeShiftFeed: build.mutation<{ url: string }, void>({ query: () => ({ url: '/account/on-call-feed', method: 'POST' }) }),
    revokeShiftFeed: build.mutation<void, void>({ query: () => ({ url: '/account/on-call-feed', method: 'DELETE' }) }),

    getSchedules: build.query<ScheduleView[], void>({ query: () => '/schedules', providesTags: ['Schedules'] }),
    getScheduleShifts: build.query<ShiftView[], { id: string; from: string; to: string }>({
      query: ({ id, from, to }) => ({ url: `/schedules/${id}/shifts`, params: { from, to } }),
      providesTags: ['Schedules'],
    }),
    createSchedule: build.mutation<ScheduleView, NewSchedule>({
      query: (body) => ({ url: '/schedules', method: 'POST', body }),
      invalidatesTags: ['Schedules'],
    }),
    updateSchedule: build.mutation<ScheduleView, UpdateSchedule & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/schedules/${id}`, method: 'PATCH', body }),
      invalidatesTags: ['Schedules'],
    }),
    deleteSchedule: build.mutation<void, string>({
      query: (id) => ({ url: `/schedules/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Schedules'],
    }),

    getContactMethods: build.query<ContactMethodView[], void>({
      query: () => '/account/contact-methods',
      providesTags: ['ContactMethods'],
    }),
    addContactMethod: build.mutation<ContactMethodView, CreateContactMethod>({
      query: (body) => ({ url: '/account/contact-methods', method: 'POST', body }),
      invalidatesTags: ['ContactMethods'],
    }),
    deleteContactMethod: build.mutation<void, string>({
      query: (id) => ({ url: `/account/contact-methods/${id}`, method: 'DELETE' }),
      invalidatesTags: ['ContactMethods'],
    }),

    getBreakerDependencies: build.query<BreakerDependenciesView, number>({
      query: (id) => `/circuit-breakers/${id}/dependencies`,
      providesTags: (_result, _error, id) => [{ type: 'BreakerDependencies', id }, 'AlertGroups'],
    }),
    setBreakerDependencies: build.mutation<BreakerDependenciesView, BreakerDependencies & { id: number }>({
      query: ({ id, ...body }) => ({ url: `/circuit-breakers/${id}/dependencies`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'BreakerDependencies', id }],
    }),
  }),
});

export const {
  useGetAlertGroupsQuery,
  useGetAlertGroupQuery,
  useGetAlertGroupSummaryQuery,
  useGetResponseTimesQuery,
  useAcknowledgeAlertGroupMutation,
  useUnacknowledgeAlertGroupMutation,
  useResolveAlertGroupMutation,
  useSilenceAlertGroupMutation,
  useGetEscalationPoliciesQuery,
  useCreateEscalationPolicyMutation,
  useUpdateEscalationPolicyMutation,
  useDeleteEscalationPolicyMutation,
  useGetOnCallPeopleQuery,
  useMakeShiftFeedMutation,
  useRevokeShiftFeedMutation,
  useGetSchedulesQuery,
  useGetScheduleShiftsQuery,
  useCreateScheduleMutation,
  useUpdateScheduleMutation,
  useDeleteScheduleMutation,
  useGetContactMethodsQuery,
  useAddContactMethodMutation,
  useDeleteContactMethodMutation,
  useGetBreakerDependenciesQuery,
  useSetBreakerDependenciesMutation,
} = onCallApi;
