import { z } from 'zod';
import type { BreakerConfigView, BreakerTransition } from './breakers';
import type { ManualAction } from './manual-control';
import type { AlertGroupState, AlertGroupSubject } from './on-call-vocabulary';
import type { DomainAlertView } from './domains';
import type { DrillState } from './drill-vocabulary';
import type { BreakerStats } from './metrics';
import type { ServiceView, TestResultView } from './services';

/* Every frame on WS_PATH is JSON {type, data}. */

export const clientMessageSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('ping'), data: z.unknown().optional() })]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/** What the server pushes. */
export type ServerMessage =
  | { type: 'pong' }
  | { type: 'testResult'; data: TestResultView }
  | { type: 'metricsUpdate'; data: { stats: BreakerStats[] } }
  | { type: 'stateChange'; data: BreakerTransition }
  /** A configuration was created, changed or deleted (config null), or an operator used a manual control on it. */
  | {
      type: 'configUpdated';
      data: { configId: number; config: BreakerConfigView | null; manual?: { action: ManualAction; reason: string } };
    }
  | { type: 'serviceUpdated'; data: { serviceId: number; service: ServiceView | null } }
  /** An account was invited, changed or deleted: for user managers and for that account itself (its own chrome). */
  | { type: 'userChanged'; data: { userId: string } }
  | { type: 'domainAlert'; data: { alert: DomainAlertView; domain: string } }
  /** A domain was added, changed by someone, or deleted. */
  | { type: 'domainUpdated'; data: { domainId: number } }
  /** The domains whose rounds of checks one replica finished in the last second (sent once a second at most). */
  | { type: 'domainsChecked'; data: { domainIds: number[] } }
  /** An alert group opened, changed state or grew its timeline: for those who may read it (domain groups: domain_management). */
  | { type: 'alertGroupChanged'; data: { id: number; subjectKind: AlertGroupSubject; state: AlertGroupState } }
  /** A drill started, a fault reached or left an instance, an expectation was judged, or it ended: for circuit_breaker_admin. */
  | { type: 'drillChanged'; data: { id: number; state: DrillState } };
