import type { AuditPage, AuditQuery, ElevationRequest, ElevationResult, OtpView, Permission, Role, UserView } from '@cbh/contracts';
import { api } from './api';

/** How often the elevation OTP step re-reads the current code and its seconds left, while it is shown. */
export const OTP_POLL_MS = 5000;

/** Users, their roles, permissions and status, the audit trail and privilege elevation. */
export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getUsers: build.query<UserView[], void>({ query: () => '/users', providesTags: ['Users'] }),
    inviteUser: build.mutation<UserView, { email: string; role: Role }>({
      query: (body) => ({ url: '/users/invite', method: 'POST', body }),
      invalidatesTags: ['Users', 'Audit'],
    }),
    updateUserRole: build.mutation<UserView, { id: string; role: Role; permissions: readonly Permission[] }>({
      query: ({ id, ...body }) => ({ url: `/users/${id}`, method: 'PATCH', body }),
      invalidatesTags: ['Users', 'Audit'],
    }),
    updateUserStatus: build.mutation<UserView, { id: string; isActive: boolean }>({
      query: ({ id, isActive }) => ({ url: `/users/${id}/status`, method: 'PATCH', body: { isActive } }),
      invalidatesTags: ['Users', 'Audit'],
    }),
    updateUserPermissions: build.mutation<UserView, { id: string; permissions: readonly Permission[] }>({
      query: ({ id, permissions }) => ({ url: `/users/${id}/permissions`, method: 'PATCH', body: { permissions } }),
      invalidatesTags: ['Users', 'Audit'],
    }),
    deleteUser: build.mutation<void, string>({
      query: (id) => ({ url: `/users/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Users', 'Audit'],
    }),
    getAudit: build.query<AuditPage, AuditQuery>({
      query: (params) => ({
        url: '/audit',
        params: Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined && value !== '')),
      }),
      providesTags: ['Audit'],
    }),
    elevate: build.mutation<ElevationResult, ElevationRequest>({
      query: (body) => ({ url: '/auth/elevate-privileges', method: 'POST', body }),
      invalidatesTags: (result) => (result?.success ? ['AuthUser'] : []),
    }),
    getOtp: build.query<OtpView, void>({ query: () => '/auth/get-otp', keepUnusedDataFor: 0 }),
  }),
});

export const {
  useGetUsersQuery,
  useInviteUserMutation,
  useUpdateUserRoleMutation,
  useUpdateUserStatusMutation,
  useUpdateUserPermissionsMutation,
  useDeleteUserMutation,
  useGetAuditQuery,
  useElevateMutation,
  useGetOtpQuery,
} = usersApi;
