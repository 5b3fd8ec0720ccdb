import { SetMetadata } from '@nestjs/common';
import type { Permission } from '@cbh/contracts';

/** Who may call an endpoint. Every route declares one; the guard refuses routes that do not. */
export type Access =
  | { kind: 'public' }
  | { kind: 'signed-in' }
  | { kind: 'permission'; permission: Permission }
  | { kind: 'any-permission'; permissions: readonly Permission[] }
  | { kind: 'super-admin' }
  | { kind: 'elevation-account' }
  | { kind: 'metrics-scrape' }
  | { kind: 'service-agent' };

export const ACCESS_KEY = 'access';

export const Public = () => SetMetadata(ACCESS_KEY, { kind: 'public' } satisfies Access);
export const SignedIn = () => SetMetadata(ACCESS_KEY, { kind: 'signed-in' } satisfies Access);
/** super_admin holds every permission. */
export const RequirePermission = (permission: Permission) => SetMetadata(ACCESS_KEY, { kind: 'permission', permission } satisfies Access);
/** Holders of any one of these permissions (super_admin holds every permission). */
export const RequireAnyPermission = (...permissions: Permission[]) =>
  SetMetadata(ACCESS_KEY, { kind: 'any-permission', permissions } satisfies Access);
/** Only a super_admin: what changes the whole hub at once (loading or removing sample data). */
export const SuperAdmin = () => SetMetadata(ACCESS_KEY, { kind: 'super-admin' } satisfies Access);
/** Only the ELEVATION_EMAIL account, while it is not yet super_admin. */
export const ElevationAccount = () => SetMetadata(ACCESS_KEY, { kind: 'elevation-account' } satisfies Access);
/** A Prometheus scrape: `Authorization: Bearer <METRICS_TOKEN>`, or a signed-in account with metrics_view. */
export const MetricsScrape = () => SetMetadata(ACCESS_KEY, { kind: 'metrics-scrape' } satisfies Access);

/** A service's agent: only a service account's access token, which reports and is controlled as that service. */
export const ServiceAgent = () => SetMetadata(ACCESS_KEY, { kind: 'service-agent' } satisfies Access);

export const SESSION_ONLY_KEY = 'session-only';

/**
 * What a personal access token may never do, whatever its permissions: the route needs a person's session. `what`
 * names it in the 403 ('Creating tokens needs a person's session…'): a stolen token must not mint more tokens, sign
 * in, elevate or accept invitations.
 */
export const SessionOnly = (what: string) => SetMetadata(SESSION_ONLY_KEY, what);
