import { SetMetadata } from '@nestjs/common';
import type { Permission } from '@cbh/contracts';

/** Who may call an endpoint. Every route declares one; the guard refuses routes that do not. */
export type Access =
  | { kind: 'public' }
  | { kind: 'signed-in' }
  | { kind: 'permission'; permission: Permission }
  | { kind: 'elevation-account' }
  | { kind: 'metrics-scrape' };

export const ACCESS_KEY = 'access';

export const Public = () => SetMetadata(ACCESS_KEY, { kind: 'public' } satisfies Access);
export const SignedIn = () => SetMetadata(ACCESS_KEY, { kind: 'signed-in' } satisfies Access);
/** super_admin holds every permission. */
export const RequirePermission = (permission: Permission) => SetMetadata(ACCESS_KEY, { kind: 'permission', permission } satisfies Access);
/** Only the ELEVATION_EMAIL account, while it is not yet super_admin. */
export const ElevationAccount = () => SetMetadata(ACCESS_KEY, { kind: 'elevation-account' } satisfies Access);
/** A Prometheus scrape: `Authorization: Bearer <METRICS_TOKEN>`, or a signed-in account with metrics_view. */
export const MetricsScrape = () => SetMetadata(ACCESS_KEY, { kind: 'metrics-scrape' } satisfies Access);
