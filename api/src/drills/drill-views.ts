import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import {
  describeFault,
  DRILL_LIMITS,
  drillFaultId,
  NOTIFICATION_EVENT_LABELS,
  publicName,
  type DrillBreakerView,
  type DrillDetailView,
  type DrillTimelineEntry,
  type DrillView,
  type NotificationEventType,
} from '@cbh/contracts';
import { UserEntity } from '../identity';
import type { DrillEntity, StoredStep } from './entities/drill.entity';
import { DrillsRepository, type DrillBreakerRow } from './drills.repository';

const breakerView = (row: DrillBreakerRow | undefined, id: number): DrillBreakerView =>
  row ? { id, name: row.name, service: row.source === 'hub' ? null : row.service } : { id, name: `breaker ${id} (deleted)`, service: null };

/** A breaker as a sentence names it: "payments (checkout)". */
export const breakerLabel = (breaker: DrillBreakerView) => (breaker.service ? `${breaker.name} (${breaker.service})` : breaker.name);

/** A step in words: "latency 800 ms on 25 % of calls of payments (checkout), all instances, 60 s". */
export const stepText = (step: Pick<StoredStep, 'fault' | 'instances' | 'durationSeconds'>, breaker: DrillBreakerView) =>
  `${describeFault(step.fault)} of ${breakerLabel(breaker)}, ${step.instances === 'all' ? 'all instances' : `${step.instances} % of instances`}, ${step.durationSeconds} s`;

/** A step as its breaker's journal says it: "latency 800 ms on 25 % of payments' calls for 60 s". */
export const journalText = (step: Pick<StoredStep, 'fault' | 'durationSeconds'>, breakerName: string) =>
  `${describeFault(step.fault).replace(/of calls$/, `of ${breakerName}${breakerName.endsWith('s') ? "'" : "'s"} calls`)} for ${step.durationSeconds} s`;

/** Drills as the API answers them: breakers by name, people by name (never an e-mail), the timeline from the journal. */
@Injectable()
export class DrillViews {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: DrillsRepository,
  ) {}

  async views(drills: readonly DrillEntity[]): Promise<DrillView[]> {
    const breakerIds = [...new Set(drills.flatMap((drill) => [...drill.steps, ...drill.expectations].map((item) => item.breakerId)))];
    const breakers = new Map((await this.repository.breakers(breakerIds)).map((row) => [row.id, row]));
    const peopleIds = [...new Set(drills.flatMap((drill) => [drill.startedBy, drill.stoppedBy]).filter((id): id is string => id !== null))];
    const people = new Map(
      (peopleIds.length ? await this.dataSource.getRepository(UserEntity).findBy({ id: In(peopleIds) }) : []).map((user) => [
        user.id,
        user,
      ]),
    );
    const person = (id: string | null) => (id && people.has(id) ? publicName(people.get(id)!) : null);
    return drills.map((drill) => ({
      id: drill.id,
      name: drill.name,
      state: drill.state,
      startedAt: drill.startedAt.toISOString(),
      endsAt: drill.endsAt.toISOString(),
      endedAt: drill.endedAt?.toISOString() ?? null,
      startedBy: person(drill.startedBy),
      stoppedBy: person(drill.stoppedBy),
      steps: drill.steps.map((step) => ({
        index: step.index,
        breaker: breakerView(breakers.get(step.breakerId), step.breakerId),
        fault: step.fault,
        instances: step.instances,
        durationSeconds: step.durationSeconds,
        startsAt: step.startsAt,
        endsAt: step.endsAt,
      })),
      expectations: drill.expectations.map((expectation) => ({
        breaker: breakerView(breakers.get(expectation.breakerId), expectation.breakerId),
        state: expectation.state,
        withinSeconds: expectation.withinSeconds,
        after: expectation.after,
        result: expectation.result,
        tookSeconds: expectation.tookSeconds,
      })),
      verdict: drill.verdict,
    }));
  }

  /** A drill with its timeline: faults per instance, the breakers' moves and events, expectations, its end. */
  async detail(drill: DrillEntity): Promise<DrillDetailView> {
    const [view] = await this.views([drill]);
    const until = new Date(
      Math.min(
        Date.now(),
        (drill.endedAt ?? drill.endsAt).getTime() + Math.max(0, ...drill.expectations.map((e) => e.withinSeconds)) * 1000,
      ),
    );
    const ids = [...new Set([...drill.steps, ...drill.expectations].map((item) => item.breakerId))];
    const limit = DRILL_LIMITS.timeline;
    const [faults, moves, events] = await Promise.all([
      this.repository.faults(drill.id, limit),
      this.repository.moves(ids, drill.startedAt, until, limit),
      this.repository.events(ids, drill.startedAt, until, limit),
    ]);
    const byId = new Map(view!.steps.map((step) => [step.breaker.id, step.breaker]));
    for (const expectation of view!.expectations) byId.set(expectation.breaker.id, expectation.breaker);
    const label = (id: number) => breakerLabel(byId.get(id) ?? { id, name: `breaker ${id}`, service: null });
    const now = Date.now();
    const entries: DrillTimelineEntry[] = [
      { at: view!.startedAt, kind: 'started', text: `Drill "${drill.name}" started${view!.startedBy ? ` by ${view!.startedBy}` : ''}` },
      ...view!.steps
        .filter((step) => Date.parse(step.startsAt) <= now && Date.parse(step.startsAt) <= (drill.endedAt?.getTime() ?? Infinity))
        .map((step) => ({
          at: step.startsAt,
          kind: 'step_started' as const,
          text: `Step ${step.index + 1}: ${stepText(step, step.breaker)}`,
          breakerId: step.breaker.id,
        })),
      ...faults.flatMap((row) => {
        const id = drillFaultId(drill.id, row.step);
        const entry = (at: Date, kind: 'fault_sent' | 'fault_applied' | 'fault_refused', text: string): DrillTimelineEntry => ({
          at: at.toISOString(),
          kind,
          text,
          instance: row.instance,
        });
        return [
          entry(row.sentAt, 'fault_sent', `Fault ${id} sent to ${row.instance}`),
          ...(row.appliedAt ? [entry(row.appliedAt, 'fault_applied', `Fault ${id} applied by ${row.instance}`)] : []),
          ...(row.refused ? [entry(row.sentAt, 'fault_refused', `Fault ${id} refused by ${row.instance}: ${row.refused}`)] : []),
        ];
      }),
      ...moves.map((move) => ({
        at: move.at.toISOString(),
        kind: 'transition' as const,
        text: `${label(move.breakerId)} ${move.from} → ${move.to}${move.instance ? ` on ${move.instance}` : ''}: ${move.reason}`,
        breakerId: move.breakerId,
        ...(move.instance ? { instance: move.instance } : {}),
      })),
      ...events.map((event) => ({
        at: event.at.toISOString(),
        kind: 'notification' as const,
        text: `${NOTIFICATION_EVENT_LABELS[event.type as NotificationEventType] ?? event.type}: ${label(event.breakerId)}`,
        breakerId: event.breakerId,
      })),
      ...view!.expectations.flatMap((expectation, index) => {
        const reference = expectation.after === 'start' ? view!.startedAt : view!.endedAt;
        if (expectation.result === 'pending' || !reference) return [];
        const wanted = `${label(expectation.breaker.id)} ${expectation.state} within ${expectation.withinSeconds} s of the drill's ${expectation.after}`;
        return [
          expectation.result === 'met'
            ? {
                at: new Date(Date.parse(reference) + (expectation.tookSeconds ?? 0) * 1000).toISOString(),
                kind: 'expectation_met' as const,
                text: `Expectation ${index + 1} met: ${wanted} (in ${expectation.tookSeconds} s)`,
              }
            : {
                at: new Date(Date.parse(reference) + expectation.withinSeconds * 1000).toISOString(),
                kind: 'expectation_missed' as const,
                text: `Expectation ${index + 1} missed: ${wanted}`,
              },
        ];
      }),
      ...(drill.endedAt
        ? [
            {
              at: drill.endedAt.toISOString(),
              kind: drill.state === 'stopped' ? ('stopped' as const) : ('finished' as const),
              text:
                drill.state === 'stopped'
                  ? `Stopped${view!.stoppedBy ? ` by ${view!.stoppedBy}` : ''}: every fault removed`
                  : 'Finished: its last step ended',
            },
          ]
        : []),
    ];
    entries.sort((a, b) => a.at.localeCompare(b.at));
    return { ...view!, timeline: entries.slice(0, limit) };
  }
}
