import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { componentState, type ComponentState } from '@cbh/contracts';
import { ClusterLeases, PeriodicWork, RealtimeBus, type Repeating } from '../platform';
import { IncidentEntity } from './entities/incident.entity';
import { StatusComponentChangeEntity, StatusComponentEntity } from './entities/status-component.entity';
import { StatusInputs } from './status-inputs';

/** How often the components are judged: a breaker forced open shows on the public page within this and a rendering's age. */
const ROUND_MS = 1000;

/**
 * Judges every component of every page, on the one replica that holds the `status.components` role, and stores a
 * component's new state with one change row in the same statement's transaction. One judge for the cluster means
 * every replica shows the same state and history (two judges a moment apart would write a flap); the role moves to
 * another replica within seconds when its holder dies. Each change is told to every replica over the bus, which
 * drops its renderings of that page.
 */
@Injectable()
export class ComponentJudge implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ComponentJudge.name);
  private rounds?: Repeating;

  constructor(
    private readonly dataSource: DataSource,
    private readonly inputs: StatusInputs,
    private readonly leases: ClusterLeases,
    private readonly work: PeriodicWork,
    private readonly bus: RealtimeBus,
  ) {}

  onModuleInit() {
    // while no page has a component the judge sleeps until a page changes on any replica, or IDLE_LOOK_MS
    this.rounds = this.work.whenDue({ soonestMs: ROUND_MS }, () => this.round());
    // a page changed (an incident, its components): judged again now rather than within a round; not for the
    // judge's own changes
    this.bus.whenTold(
      ['status-changed'],
      () => this.rounds?.runAgain(),
      (envelope) => (envelope.data as { judged?: boolean } | null)?.judged !== true,
    );
  }

  onApplicationShutdown() {
    void this.rounds?.stop();
  }

  /** A round of the replica holding the role; the next one at once, or only when woken while there is nothing to judge. */
  private async round(): Promise<number | null> {
    // the role is asked in memory: a replica that takes it over judges within a round
    if (!this.leases.holds('status.components')) return Date.now() + ROUND_MS;
    try {
      const judged = await this.judge();
      return judged.components === 0 ? null : Date.now() + ROUND_MS;
    } catch (error) {
      this.logger.warn(`status components not judged: ${(error as Error).message}`);
      return Date.now() + ROUND_MS;
    }
  }

  /** One round: every component's state now, and the changes stored; answers the pages that changed. */
  async judge(now = new Date()): Promise<{ components: number; changedPages: number[] }> {
    const components = await this.dataSource.getRepository(StatusComponentEntity).find();
    if (components.length === 0) return { components: 0, changedPages: [] };
    const incidentStates = await this.incidentStates();
    const inputs = await this.inputs.gather(components, incidentStates, now);
    const changedPages = new Set<number>();
    for (const component of components) {
      const state = componentState(inputs.get(component.id)!);
      if (state === component.state) continue;
      const changed = await this.dataSource.transaction(async (manager) => {
        const result = await manager
          .createQueryBuilder()
          .update(StatusComponentEntity)
          .set({ state, stateSince: now })
          .where('id = :id AND state <> :state', { id: component.id, state })
          .execute();
        if (!result.affected) return false;
        await manager.getRepository(StatusComponentChangeEntity).insert({ componentId: component.id, state, at: now });
        return true;
      });
      if (changed) changedPages.add(component.pageId);
    }
    if (changedPages.size > 0) {
      await this.bus.publishInternal('status-changed', { pages: [...changedPages], judged: true }).catch(() => undefined);
    }
    return { components: components.length, changedPages: [...changedPages] };
  }

  /** The states open incidents set by hand, by component; the newest incident's wins where two name one. */
  private async incidentStates(): Promise<Map<number, ComponentState>> {
    const open = await this.dataSource.getRepository(IncidentEntity).find({ where: { resolvedAt: IsNull() }, order: { id: 'ASC' } });
    const states = new Map<number, ComponentState>();
    for (const incident of open) for (const entry of incident.components) states.set(entry.id, entry.state);
    return states;
  }
}
