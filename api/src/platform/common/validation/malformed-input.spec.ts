import { randomUUID } from 'node:crypto';
import {
  acceptInvitationSchema,
  createServiceAccountSchema,
  createTokenSchema,
  elevateSchema,
  inviteUserSchema,
  loginSchema,
  pruneRetentionSchema,
  updateOrganizationSchema,
  updateRetentionSchema,
  updateServiceAccountSchema,
  updateUserPermissionsSchema,
  updateUserSchema,
  updateUserStatusSchema,
} from '@cbh/contracts';
import { type Endpoint, malformedInputApiForThisFile } from './malformed-input.test-kit';

/*
 * Malformed bodies sent to the endpoints of accounts and access (sign-in, users and invitations, tokens, service
 * accounts, the organization, retention, elevation) are refused with a 4xx naming the problem, never a 5xx, and
 * change nothing. The hub's resources are in malformed-resource-input.spec.ts.
 */
const { spec, describeMalformedInput } = malformedInputApiForThisFile();

const ENDPOINTS: Endpoint[] = [
  {
    name: 'POST /api/login',
    method: 'POST',
    path: () => '/api/login',
    schema: loginSchema,
    fields: ['email', 'password'],
    cookie: () => undefined,
  },
  {
    name: 'POST /api/users/invite',
    method: 'POST',
    path: () => '/api/users/invite',
    schema: inviteUserSchema,
    fields: ['email', 'role'],
    cookie: () => spec.admin,
  },
  {
    name: 'PATCH /api/users/:id',
    method: 'PATCH',
    path: () => `/api/users/${randomUUID()}`,
    schema: updateUserSchema,
    fields: ['role', 'permissions'],
    cookie: () => spec.admin,
  },
  {
    name: 'PATCH /api/users/:id/status',
    method: 'PATCH',
    path: () => `/api/users/${randomUUID()}/status`,
    schema: updateUserStatusSchema,
    fields: ['isActive'],
    cookie: () => spec.admin,
  },
  {
    name: 'PATCH /api/users/:id/permissions',
    method: 'PATCH',
    path: () => `/api/users/${randomUUID()}/permissions`,
    schema: updateUserPermissionsSchema,
    fields: ['permissions'],
    cookie: () => spec.admin,
  },
  {
    name: 'POST /api/invitations/:token',
    method: 'POST',
    path: () => `/api/invitations/${randomUUID()}`,
    schema: acceptInvitationSchema,
    fields: ['password', 'firstName', 'lastName'],
    cookie: () => undefined,
  },
  {
    name: 'POST /api/tokens',
    method: 'POST',
    path: () => '/api/tokens',
    schema: createTokenSchema,
    fields: ['name', 'expiresInDays', 'permissions'],
    cookie: () => spec.admin,
  },
  {
    name: 'PATCH /api/system/retention',
    method: 'PATCH',
    path: () => '/api/system/retention',
    schema: updateRetentionSchema,
    fields: ['auditDays', 'checkResultDays', 'transitionDays', 'notificationDays'],
    cookie: () => spec.admin,
  },
  {
    name: 'POST /api/system/retention/prune',
    method: 'POST',
    path: () => '/api/system/retention/prune',
    schema: pruneRetentionSchema,
    fields: [],
    cookie: () => spec.admin,
  },
  {
    name: 'POST /api/service-accounts',
    method: 'POST',
    path: () => '/api/service-accounts',
    schema: createServiceAccountSchema,
    fields: ['name', 'role', 'permissions'],
    cookie: () => spec.admin,
  },
  {
    name: 'PATCH /api/service-accounts/:id',
    method: 'PATCH',
    path: () => `/api/service-accounts/${spec.serviceAccountId}`,
    schema: updateServiceAccountSchema,
    fields: ['isActive', 'role', 'permissions'],
    cookie: () => spec.admin,
  },
  {
    name: 'POST /api/service-accounts/:id/tokens',
    method: 'POST',
    path: () => `/api/service-accounts/${spec.serviceAccountId}/tokens`,
    schema: createTokenSchema,
    fields: ['name', 'expiresInDays', 'permissions'],
    cookie: () => spec.admin,
  },
  {
    name: 'PATCH /api/organizations/:id',
    method: 'PATCH',
    path: () => `/api/organizations/${spec.organizationId}`,
    schema: updateOrganizationSchema,
    fields: ['name', 'invitationDomains', 'maxTokenDays', 'idleSessionMinutes'],
    cookie: () => spec.admin,
  },
  {
    name: 'POST /api/auth/elevate-privileges',
    method: 'POST',
    path: () => '/api/auth/elevate-privileges',
    schema: elevateSchema,
    fields: ['method', 'masterKey', 'code'],
    cookie: () => spec.elevationAccount,
  },
];

describeMalformedInput(ENDPOINTS);

it('names the offending field', async () => {
  const response = await fetch(`${spec.api.baseUrl}/api/users/invite`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: spec.admin },
    body: JSON.stringify({ email: 'someone@example.com', role: 'emperor' }),
  });
  expect(response.status).toBe(400);
  expect((await response.json()).message).toBe('role: must be one of viewer, operator, admin, super_admin');
});
