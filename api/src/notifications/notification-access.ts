import { ForbiddenException } from '@nestjs/common';
import { hasPermission, isDomainEvent } from '@cbh/contracts';
import type { AppRequest } from '../identity';

/*
 * Who may route, mute or read domain alerts among the notification settings: circuit_breaker_admin is the routes'
 * (the controllers'); these add domain_management where domain alerts are concerned. A null request is the hub's own.
 */

/** Whether a request may read domain alerts, and so route, mute or see their notifications. */
export function readsDomainEvents(req: AppRequest | null): boolean {
  return req === null || hasPermission(req.user, 'domain_management');
}

/** Routing domain alerts means reading them: a rule with domain events, before or after, needs domain_management too. */
export function mayRouteEvents(req: AppRequest | null, events: readonly string[]) {
  if (req && events.some(isDomainEvent) && !readsDomainEvents(req)) {
    throw new ForbiddenException('Requires the domain_management permission to notify about domain events');
  }
}

/** Muting domain alerts (a window naming domains, or naming nothing, which covers everything) needs domain_management. */
export function mayMute(req: AppRequest | null, window: { breakers: readonly string[]; domains: readonly string[] }) {
  const coversDomains = window.domains.length > 0 || window.breakers.length === 0;
  if (req && coversDomains && !readsDomainEvents(req)) {
    throw new ForbiddenException('Requires the domain_management permission to mute domain alerts: name the breakers the window covers');
  }
}
