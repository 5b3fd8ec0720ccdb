import { z } from 'zod';
import { ELEVATION_METHODS, PERMISSIONS, ROLES } from './roles';
import { isServiceAccountEmail, SERVICE_ACCOUNT_EMAIL_DOMAIN } from './service-account-vocabulary';
import type { TokenVia } from './token-vocabulary';

/** A user as the API returns it. */
export interface UserView {
  id: string;
  email: string;
  role: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  permissions: string[];
  isActive: boolean;
  activatedAt: string | null;
  lastLoginAt: string | null;
  createdAt: string;
}

const email = z
  .email({ message: 'must be an e-mail address' })
  .max(254)
  .transform((value) => value.toLowerCase());
/** A role of ROLES, as every body that sets one takes it. */
export const roleSchema = z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` });
/** A list of known permissions, at most all of them. */
export const permissionsSchema = z.array(z.enum(PERMISSIONS, { message: 'is not a known permission' })).max(PERMISSIONS.length);

export const loginSchema = z.strictObject({
  email,
  password: z.string().min(1, 'is required').max(200),
});

export const inviteUserSchema = z.strictObject({
  email: email.refine(
    (value) => !isServiceAccountEmail(value),
    `must not be at ${SERVICE_ACCOUNT_EMAIL_DOMAIN}, which names service accounts`,
  ),
  role: roleSchema.default('viewer'),
});

export const updateUserSchema = z.strictObject({ role: roleSchema, permissions: permissionsSchema.optional() });

export const updateUserStatusSchema = z.strictObject({ isActive: z.boolean({ message: 'must be true or false' }) });

export const updateUserPermissionsSchema = z.strictObject({ permissions: permissionsSchema });

/** A user id in its one spelling, lower case, so a self check, a cache key or an audit entry cannot miss it by case. */
export const userIdSchema = z.uuid({ message: 'must be a user id' }).transform((id) => id.toLowerCase());

export const acceptInvitationSchema = z.strictObject({
  password: z.string().min(12, 'must be at least 12 characters').max(200),
  firstName: z.string().trim().max(100).optional(),
  lastName: z.string().trim().max(100).optional(),
});

export const auditQuerySchema = z.strictObject({
  actor: z.string().max(254).optional(),
  action: z.string().max(100).optional(),
  from: z.iso.datetime({ message: 'must be an ISO date-time' }).optional(),
  to: z.iso.datetime({ message: 'must be an ISO date-time' }).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});

export const elevateSchema = z.discriminatedUnion(
  'method',
  [
    z.strictObject({ method: z.literal('email_verification') }),
    z.strictObject({ method: z.literal('master_key'), masterKey: z.string().min(1, 'is required').max(500) }),
    z.strictObject({ method: z.literal('time_based_otp'), code: z.string().regex(/^\d{6}$/, 'must be the 6-digit code') }),
  ],
  { message: `method: must be one of ${ELEVATION_METHODS.join(', ')}` },
);

/** One entry of the audit trail, as GET /api/audit lists it. */
export interface AuditEntryView {
  id: string;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  /** What the target is called where the hub can tell (an account's e-mail); absent otherwise. */
  targetName?: string | null;
  before: unknown;
  after: unknown;
  requestId: string | null;
  /** The personal access token the change was made through; null when made in a person's session or by the API. */
  via: TokenVia | null;
  createdAt: string;
}

/** GET /api/audit: a page of entries, newest first, and how many match in all. */
export interface AuditPage {
  entries: AuditEntryView[];
  total: number;
  page: number;
  pageSize: number;
}

export type AuditQuery = z.input<typeof auditQuerySchema>;

/** POST /api/auth/elevate-privileges answers 200 with this: elevated, or (e-mail) a link is on its way. */
export interface ElevationResult {
  success: boolean;
  pending?: boolean;
  message: string;
}

export type ElevationRequest = z.infer<typeof elevateSchema>;

/** What GET /api/auth/get-otp returns. */
export interface OtpView {
  otp: string;
  timeLeft: number;
}
