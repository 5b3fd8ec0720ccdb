import type {
  ChannelView,
  CreateChannel,
  CreateRule,
  CreateWindow,
  DeliveryPage,
  DeliveryQuery,
  DeliveryView,
  MaintenanceWindowView,
  RuleView,
  TestDeliveryView,
  UpdateChannel,
  UpdateRule,
} from '@cbh/contracts';
import { api } from './api';

/**
 * Notification channels, the rules that route events to them, maintenance windows and the delivery log, for
 * holders of circuit_breaker_admin. A delivery changes both the log and its channel's last delivery, so what
 * makes one (a test, a retry) refreshes both.
 */
export const notificationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getNotificationChannels: build.query<ChannelView[], void>({
      query: () => '/notification-channels',
      providesTags: ['NotificationChannels'],
    }),
    createNotificationChannel: build.mutation<ChannelView, CreateChannel>({
      query: (body) => ({ url: '/notification-channels', method: 'POST', body }),
      invalidatesTags: ['NotificationChannels'],
    }),
    updateNotificationChannel: build.mutation<ChannelView, UpdateChannel & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/notification-channels/${id}`, method: 'PATCH', body }),
      invalidatesTags: ['NotificationChannels'],
    }),
    // a rule lists its channels: one deleted leaves those lists
    deleteNotificationChannel: build.mutation<void, string>({
      query: (id) => ({ url: `/notification-channels/${id}`, method: 'DELETE' }),
      invalidatesTags: ['NotificationChannels', 'NotificationRules'],
    }),
    testNotificationChannel: build.mutation<TestDeliveryView, string>({
      query: (id) => ({ url: `/notification-channels/${id}/test`, method: 'POST' }),
      invalidatesTags: ['NotificationChannels', 'NotificationDeliveries'],
    }),

    getNotificationRules: build.query<RuleView[], void>({ query: () => '/notification-rules', providesTags: ['NotificationRules'] }),
    createNotificationRule: build.mutation<RuleView, CreateRule>({
      query: (body) => ({ url: '/notification-rules', method: 'POST', body }),
      invalidatesTags: ['NotificationRules'],
    }),
    updateNotificationRule: build.mutation<RuleView, UpdateRule & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/notification-rules/${id}`, method: 'PATCH', body }),
      invalidatesTags: ['NotificationRules'],
    }),
    deleteNotificationRule: build.mutation<void, string>({
      query: (id) => ({ url: `/notification-rules/${id}`, method: 'DELETE' }),
      invalidatesTags: ['NotificationRules'],
    }),

    getMaintenanceWindows: build.query<MaintenanceWindowView[], void>({
      query: () => '/maintenance-windows',
      providesTags: ['MaintenanceWindows'],
    }),
    createMaintenanceWindow: build.mutation<MaintenanceWindowView, CreateWindow>({
      query: (body) => ({ url: '/maintenance-windows', method: 'POST', body }),
      invalidatesTags: ['MaintenanceWindows'],
    }),
    deleteMaintenanceWindow: build.mutation<void, string>({
      query: (id) => ({ url: `/maintenance-windows/${id}`, method: 'DELETE' }),
      invalidatesTags: ['MaintenanceWindows'],
    }),

    /** A page of the log, newest first; `before` is the previous page's nextBefore. */
    getNotificationDeliveries: build.query<DeliveryPage, Partial<DeliveryQuery>>({
      query: (params) => ({ url: '/notification-deliveries', params }),
      providesTags: ['NotificationDeliveries'],
    }),
    retryNotificationDelivery: build.mutation<DeliveryView, string>({
      query: (id) => ({ url: `/notification-deliveries/${id}/retry`, method: 'POST' }),
      invalidatesTags: ['NotificationChannels', 'NotificationDeliveries'],
    }),
  }),
});

export const {
  useGetNotificationChannelsQuery,
  useCreateNotificationChannelMutation,
  useUpdateNotificationChannelMutation,
  useDeleteNotificationChannelMutation,
  useTestNotificationChannelMutation,
  useGetNotificationRulesQuery,
  useCreateNotificationRuleMutation,
  useUpdateNotificationRuleMutation,
  useDeleteNotificationRuleMutation,
  useGetMaintenanceWindowsQuery,
  useCreateMaintenanceWindowMutation,
  useDeleteMaintenanceWindowMutation,
  useGetNotificationDeliveriesQuery,
  useRetryNotificationDeliveryMutation,
} = notificationsApi;
