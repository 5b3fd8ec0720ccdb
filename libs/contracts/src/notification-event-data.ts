// No schema library here: receivers' types, and the screens that show what was sent, import these.
import type { AlertSeverity, DomainAlertType } from './domain-vocabulary';
import type { BreakerSource, BreakerStateName, BreakerTypeName } from './breaker-vocabulary';
import type { NotificationEventType } from './notification-vocabulary';
import type { AlertGroupEventData, AlertGroupMessageData } from './on-call-vocabulary';
import type { SloEventData } from './slo-vocabulary';

/* What each notification event carries (`data` of a webhook's body), a public contract receivers depend on. */

/** The data of a breaker event, as webhooks receive it. */
export interface BreakerEventData {
  /** `source` and `service` say where the breaker runs (hub, agent or scrape); service is null for the hub's own. */
  breaker: { id: number; name: string; type: BreakerTypeName; source?: BreakerSource; service?: string | null };
  /** The service instance an agent's or scraped breaker moved on, null when the hub journalled the move. */
  instance?: string | null;
  from?: BreakerStateName;
  to?: BreakerStateName;
  reason?: string;
  /** When the breaker opened (stuck_open) */
  openedAt?: string;
  /** Openings counted (flapping) and the minutes they were counted over. */
  openings?: number;
  minutes?: number;
  /** breaker.events_capped: the cap its service passed, and the minute it passed it in (ISO 8601, UTC). */
  limit?: number;
  minute?: string;
  url: string;
}

/**
 * The data of an incident event (incident.created, incident.updated, incident.resolved), as webhooks receive it:
 * the page, the incident with its latest update, and the public page's address.
 */
export interface IncidentEventData {
  page: { id: number; slug: string; title: string };
  incident: {
    id: number;
    title: string;
    impact: 'none' | 'minor' | 'major' | 'critical';
    status: 'investigating' | 'identified' | 'monitoring' | 'resolved';
    components: { id: number; name: string; state: string }[];
    /** the latest update's Markdown */
    message: string;
  };
  url: string;
}

/** The data of `maintenance.scheduled` (see MAINTENANCE_SCHEDULED_EVENT). */
export interface MaintenanceEventData {
  page: { id: number; slug: string; title: string };
  maintenance: { name: string; startsAt: string; endsAt: string; active: boolean; components: string[] };
  url: string;
}

/**
 * The data of a release event, as webhooks receive it: a canary of a remote rolled back by itself, or failing for
 * too few people yet to roll it back.
 */
export interface ReleaseEventData {
  remote: string;
  /** The canary's version, and the live version (everyone is back on it after a rollback; null: the deployed folder). */
  versionId: number;
  liveVersionId: number | null;
  reason: string;
  /** release.rolled_back by an SLO the canary was judged by: that SLO. */
  slo?: { id: number; name: string };
  url: string;
}

/** The data of a domain alert event, as webhooks receive it. */
export interface DomainEventData {
  domain: { id: number; name: string };
  alert: { id: number; type: DomainAlertType; severity: AlertSeverity; message: string; status: 'open' | 'resolved' };
  url: string;
}

/**
 * The data of a drill event: `drill.started` when a drill begins (its steps say the blast radius), `drill.finished`
 * when it ends — by its last step, or stopped (`stoppedBy`) — with its verdict so far (`pending` while an
 * expectation after its end still waits).
 */
export interface DrillEventData {
  drill: { id: number; name: string; state: 'running' | 'finished' | 'stopped'; verdict: 'met' | 'missed' | 'pending' };
  /** Each step in words: "latency 800 ms on 25 % of calls of payments (checkout), all instances, 60 s". */
  steps: string[];
  startedBy: string | null;
  stoppedBy?: string | null;
  url: string;
}

/** The body of every webhook delivery; `id` is the delivery's id, the same on every retry (X-CBH-Delivery). */
export interface WebhookBody {
  id: string;
  type: NotificationEventType;
  occurredAt: string;
  data: (
    | BreakerEventData
    | DomainEventData
    | ReleaseEventData
    | IncidentEventData
    | AlertGroupEventData
    | SloEventData
    | DrillEventData
    | { message: string; url: string }
  ) & {
    /** set on every message an escalation policy's step sends */
    alertGroup?: AlertGroupMessageData;
  };
}
