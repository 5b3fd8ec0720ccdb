import { z } from 'zod';
import { domainNameSchema } from './domains';
import { tokenDaysSchema } from './tokens';

/** The organisation and its settings, as GET /api/organizations lists it (one in practice). */
export interface OrganizationView {
  id: string;
  name: string;
  /** E-mail domains invitations may go to; empty: any. */
  invitationDomains: string[];
  /** The longest lifetime, in days, of a new access token. */
  maxTokenDays: number;
  /** Minutes without a request after which a session ends; null: no idle limit. */
  idleSessionMinutes: number | null;
}

export const ORGANIZATION_NAME_MAX = 100;
export const INVITATION_DOMAINS_MAX = 50;
export const IDLE_SESSION_MINUTES_MIN = 5;
/** 30 days. */
export const IDLE_SESSION_MINUTES_MAX = 43_200;

/** PATCH /api/organizations/{id}: any of the settings, at least one. */
export const updateOrganizationSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'is required').max(ORGANIZATION_NAME_MAX),
    invitationDomains: z
      .array(domainNameSchema)
      .max(INVITATION_DOMAINS_MAX, `must list at most ${INVITATION_DOMAINS_MAX} domains`)
      .transform((domains) => [...new Set(domains)]),
    maxTokenDays: tokenDaysSchema,
    idleSessionMinutes: z
      .number({ message: 'must be a number of minutes, or null for no idle limit' })
      .int('must be whole minutes')
      .min(IDLE_SESSION_MINUTES_MIN, `must be at least ${IDLE_SESSION_MINUTES_MIN} minutes`)
      .max(IDLE_SESSION_MINUTES_MAX, `must be at most ${IDLE_SESSION_MINUTES_MAX} minutes (30 days)`)
      .nullable(),
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'name, invitationDomains, maxTokenDays or idleSessionMinutes is required' });

export const organizationIdSchema = z.uuid({ message: 'must be an organization id' }).transform((id) => id.toLowerCase());

/** Why an invitation to `email` is refused by the organisation's domains, or null when it may go. */
export function invitationDomainRefusal(email: string, invitationDomains: readonly string[]): string | null {
  if (invitationDomains.length === 0) return null;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return invitationDomains.includes(domain) ? null : `Invitations may only go to addresses at ${invitationDomains.join(', ')}`;
}
