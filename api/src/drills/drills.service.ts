import { ConflictException, Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { BreakerNotes } from '../breakers';
import { DRILL_LIMITS, type CreateDrill, type DrillBreakerRef, type DrillDetailView, type DrillView } from '@cbh/contracts';
import { type AppRequest, AuditService, RecentSignIn } from '../identity';
import { HubEvents } from '../platform';
import { DrillRunner } from './drill-runner.service';
import { breakerLabel, DrillViews, journalText, stepText } from './drill-views';
import { DrillEntity, type StoredExpectation, type StoredStep } from './entities/drill.entity';
import { DrillsRepository, type DrillBreakerRow } from './drills.repository';

export const RECENT_SIGN_IN_MESSAGE = `Sign in again to start a drill: it hurts real traffic, so it needs a sign-in within the last ${DRILL_LIMITS.recentSignInMinutes} minutes`;

/**
 * Drills: started at once (each step after the one before), every breaker held by one drill at a time and at most
 * DRILL_LIMITS.runningAtOnce drills on the site; stopped one by one or all at once (the kill switch). Every start and
 * stop is audited, raises its event and tells every replica, whose fault plans follow within a report.
 */
@Injectable()
export class DrillsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: DrillsRepository,
    private readonly views: DrillViews,
    private readonly runner: DrillRunner,
    private readonly audit: AuditService,
    private readonly events: HubEvents,
    private readonly recentSignIn: RecentSignIn,
    private readonly notes: BreakerNotes,
  ) {}

  /** The breaker a step or expectation names: by id, or by its service and name; 422 naming what is wrong. */
  private async breakerOf(ref: DrillBreakerRef, where: string): Promise<DrillBreakerRow> {
    const row =
      typeof ref === 'number' ? (await this.repository.breakers([ref]))[0] : await this.repository.breakerOf(ref.service, ref.name);
    if (!row) {
      throw new UnprocessableEntityException(
        `${where}: ${typeof ref === 'number' ? `no breaker has the id ${ref}` : `no breaker ${ref.name} of the service ${ref.service}`}`,
      );
    }
    if (row.source === 'scrape') {
      throw new UnprocessableEntityException(
        `${where}: ${row.name} (${row.service}) is scraped from resilience4j's endpoints: the hub cannot inject faults into its calls (run the agent)`,
      );
    }
    return row;
  }

  async start(req: AppRequest, body: CreateDrill): Promise<DrillView> {
    await this.recentSignIn.require(req, DRILL_LIMITS.recentSignInMinutes, RECENT_SIGN_IN_MESSAGE);
    const stepBreakers = await Promise.all(body.steps.map((step, index) => this.breakerOf(step.breaker, `steps[${index}].breaker`)));
    const expected = await Promise.all(
      (body.expectations ?? []).map((expectation, index) => this.breakerOf(expectation.breaker, `expectations[${index}].breaker`)),
    );
    const drill = await this.dataSource.transaction(async (manager) => {
      if ((await this.repository.countRunning(manager)) >= DRILL_LIMITS.runningAtOnce) {
        throw new ConflictException(`${DRILL_LIMITS.runningAtOnce} drills are running, the most the site runs at once: stop one first`);
      }
      const startedAt = new Date();
      let at = startedAt.getTime();
      const steps: StoredStep[] = body.steps.map((step, index) => {
        const startsAt = new Date(at);
        at += step.durationSeconds * 1000;
        return {
          index,
          breakerId: stepBreakers[index]!.id,
          fault: step.fault,
          instances: step.instances,
          durationSeconds: step.durationSeconds,
          startsAt: startsAt.toISOString(),
          endsAt: new Date(at).toISOString(),
        };
      });
      const expectations: StoredExpectation[] = (body.expectations ?? []).map((expectation, index) => ({
        breakerId: expected[index]!.id,
        state: expectation.state,
        withinSeconds: expectation.withinSeconds,
        after: expectation.after,
        result: 'pending',
        tookSeconds: null,
      }));
      const saved = await manager.getRepository(DrillEntity).save({
        name: body.name,
        state: 'running' as const,
        startedAt,
        endsAt: new Date(at),
        startedBy: req.user?.id ?? null,
        steps,
        expectations,
      });
      const held = await this.repository.hold(manager, saved.id, [...new Set(steps.map((step) => step.breakerId))]);
      if (held.length > 0) {
        const taken = stepBreakers.find((row) => row.id === held[0]!.breakerId)!;
        throw new ConflictException(
          `${breakerLabel({ ...taken, service: taken.source === 'hub' ? null : taken.service })} is under drill ${held[0]!.drillId} already: one drill per breaker at a time`,
        );
      }
      const entity = (await manager.getRepository(DrillEntity).findOneByOrFail({ id: saved.id }))!;
      await this.audit.record(
        req,
        {
          action: 'drill.start',
          targetType: 'drill',
          targetId: String(entity.id),
          after: {
            name: entity.name,
            steps: steps.map((step, index) =>
              stepText(step, {
                id: step.breakerId,
                name: stepBreakers[index]!.name,
                service: stepBreakers[index]!.source === 'hub' ? null : stepBreakers[index]!.service,
              }),
            ),
          },
        },
        manager,
      );
      await this.events.raiseIn(manager, {
        type: 'drill.started',
        subject: { kind: 'drill', id: entity.id, name: entity.name },
        data: await this.runner.eventData(entity),
      });
      return entity;
    });
    await this.runner.announce([drill.id], 'running');
    // each breaker's journal says what is done to its calls, and by which drill
    await this.notes.note(
      drill.steps.map((step, index) => ({
        configId: step.breakerId,
        reason: `${journalText(step, stepBreakers[index]!.name)}, drill '${drill.name}'${index > 0 ? ` (step ${index + 1}, from ${step.startsAt})` : ''}`,
      })),
    );
    return (await this.views.views([drill]))[0]!;
  }

  async list(): Promise<DrillView[]> {
    const drills = await this.dataSource.getRepository(DrillEntity).find({ order: { id: 'DESC' }, take: DRILL_LIMITS.listed });
    return this.views.views(drills);
  }

  async detail(id: number): Promise<DrillDetailView> {
    return this.views.detail(await this.find(id));
  }

  private async find(id: number): Promise<DrillEntity> {
    const drill = await this.dataSource.getRepository(DrillEntity).findOneBy({ id });
    if (!drill) throw new NotFoundException(`No drill with id ${id}`);
    return drill;
  }

  /** Stops one running drill: its faults end at the instances' next report. */
  async stop(req: AppRequest, id: number): Promise<DrillView> {
    const drill = await this.find(id);
    const [ended] = await this.repository.end('stopped', [id], req.user?.id ?? null);
    if (ended === undefined)
      throw new ConflictException(`Drill ${id} is not running: it ${drill.state === 'stopped' ? 'was stopped' : 'finished'} already`);
    await this.audit.record(req, {
      action: 'drill.stop',
      targetType: 'drill',
      targetId: String(id),
      before: { state: 'running' },
      after: { state: 'stopped' },
    });
    await this.runner.announce([id], 'stopped');
    await this.noteStopped([drill]);
    return (await this.views.views([await this.find(id)]))[0]!;
  }

  /** The kill switch: every running drill stopped, every fault gone from every instance within a reporting period. */
  async stopAll(req: AppRequest): Promise<{ stopped: number }> {
    const ended = await this.repository.end('stopped', null, req.user?.id ?? null);
    await this.audit.record(req, {
      action: 'drill.stop-all',
      targetType: 'drill',
      targetId: null,
      after: { stopped: ended },
    });
    if (ended.length > 0) {
      await this.runner.announce(ended, 'stopped');
      await this.noteStopped(await this.dataSource.getRepository(DrillEntity).findBy({ id: In(ended) }));
    }
    return { stopped: ended.length };
  }

  private async noteStopped(drills: readonly DrillEntity[]) {
    const notes = drills.flatMap((drill) =>
      [...new Set(drill.steps.map((step) => step.breakerId))].map((configId) => ({
        configId,
        reason: `drill '${drill.name}' stopped: its faults are lifted`,
      })),
    );
    await this.notes.note(notes);
  }
}
