import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { BURN_SEVERITIES, firingBurnAlerts, sloPath, type SloEventData, type SloEventType, type SloView } from '@cbh/contracts';
import { APP_CONFIG, HubEvents, type AppConfig, type HubEvent } from '../platform';
import { SloEntity, type SloAlertState } from './entities/slo.entity';

/** What judging one SLO changes: its new alert state, and the events that tells. */
export interface SloJudgement {
  alerts: SloAlertState;
  events: { type: SloEventType; data: Omit<SloEventData, 'slo' | 'url'> }[];
}

/**
 * The alerts of one SLO against what fired before: a severity starting to fire raises slo.burn_rate (once, until no
 * alert of it fires), the budget running out raises slo.budget_exhausted (once, until it is above nothing again), and
 * the last burning severity clearing raises slo.recovered. Pure: the same figures judge the same on every replica.
 */
export function judgeSlo(view: Pick<SloView, 'burnRates' | 'errorBudgetRemaining'>, before: SloAlertState, now: Date): SloJudgement {
  const alerts: SloAlertState = {};
  const events: SloJudgement['events'] = [];
  const firing = firingBurnAlerts(view.burnRates);
  const remaining = view.errorBudgetRemaining;
  for (const severity of BURN_SEVERITIES) {
    // the most urgent of the severity's alerts names the window (the workbook lists the faster burn first)
    const alert = firing.find((candidate) => candidate.severity === severity);
    if (!alert) continue;
    const burnRate = view.burnRates[alert.long] ?? 0;
    alerts[severity] = before[severity] ?? { since: now.toISOString(), window: alert.long, burnRate };
    if (!before[severity])
      events.push({ type: 'slo.burn_rate', data: { severity, window: alert.long, burnRate, errorBudgetRemaining: remaining } });
  }
  if (remaining <= 0) {
    alerts.exhausted = before.exhausted ?? { since: now.toISOString() };
    if (!before.exhausted) events.push({ type: 'slo.budget_exhausted', data: { errorBudgetRemaining: remaining } });
  }
  const burnedBefore = BURN_SEVERITIES.some((severity) => before[severity]);
  const burnsNow = BURN_SEVERITIES.some((severity) => alerts[severity]);
  if (burnedBefore && !burnsNow) events.push({ type: 'slo.recovered', data: { errorBudgetRemaining: remaining } });
  return { alerts, events };
}

/** Writes the judgements that changed something: each SLO's alert state and its events, in the counting's transaction. */
@Injectable()
export class SloAlerts {
  constructor(
    private readonly events: HubEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async write(manager: EntityManager, judged: { row: SloEntity; judgement: SloJudgement }[]): Promise<number> {
    const changed = judged.filter(({ row, judgement }) => JSON.stringify(row.alerts) !== JSON.stringify(judgement.alerts));
    for (const { row, judgement } of changed) {
      await manager.getRepository(SloEntity).update({ id: row.id }, { alerts: judgement.alerts });
    }
    const events: Omit<HubEvent, 'dedupeKey'>[] = judged.flatMap(({ row, judgement }) =>
      judgement.events.map((event) => ({
        type: event.type,
        subject: { kind: 'slo', id: row.id, name: row.name },
        data: {
          slo: { id: row.id, name: row.name, target: row.target, window: row.window, kind: row.kind },
          ...event.data,
          url: `${this.config.PUBLIC_URL}${sloPath(row.id)}`,
        } satisfies SloEventData,
      })),
    );
    await this.events.raiseAllIn(manager, events);
    return events.length;
  }
}
