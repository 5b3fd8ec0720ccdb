import { ConflictException, HttpException, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import type { z } from 'zod';
import {
  manualReason,
  type BreakerConfigView,
  type BreakerOverride,
  type BreakerStateName,
  type ManualAction,
  type updateLibrarySettingsSchema,
} from '@cbh/contracts';
import { AuditService, type AppRequest } from '../identity';
import { BreakerAnnouncer } from './breaker-announcer.service';
import { refuseScraped } from './breaker-refusals';
import { BreakerRegistry } from './breaker-registry.service';
import { BreakerConfigEntity } from './entities/breaker-config.entity';
import { FleetCatalog } from './fleet/fleet-catalog.service';
import { FleetFigures } from './fleet/fleet-figures.service';
import { FleetRepository } from './fleet/fleet.repository';

/** The override each control leaves on the configuration. */
const OVERRIDE_AFTER: Record<ManualAction, BreakerOverride> = {
  'force-open': 'forced-open',
  'force-closed': 'forced-closed',
  disable: 'disabled',
  reset: 'none',
};

/** Where each control leaves an agent's breaker, as the journal records the hub's sending it. */
const STATE_AFTER: Record<ManualAction, BreakerStateName> = {
  'force-open': 'OPEN',
  'force-closed': 'CLOSED',
  disable: 'CLOSED',
  reset: 'CLOSED',
};

/** An agent's breaker's next control revision, from the one sequence of all of them (see the ExternalBreakers migration). */
const NEXT_REVISION = () => "nextval('breaker_control_revision')";

/** Manual control of breakers (force open, force closed, disable, reset) and an agent's breaker's library settings. */
@Injectable()
export class BreakerControl {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: BreakerRegistry,
    private readonly audit: AuditService,
    private readonly announcer: BreakerAnnouncer,
    private readonly fleet: FleetCatalog,
    private readonly fleetFigures: FleetFigures,
    private readonly fleetRepository: FleetRepository,
  ) {}

  /**
   * Force open, force closed, disable or reset, on every replica: the override is kept with the configuration (a
   * replica that starts later applies it), audited (the audit entry's actor is the account), journalled once with
   * who did it by name or role, and announced so the other replicas follow at once.
   */
  async manual(req: AppRequest, id: number, action: ManualAction): Promise<BreakerConfigView> {
    const [outcome] = await this.manualMany(req, [id], action);
    if (outcome instanceof HttpException) throw outcome;
    return outcome!;
  }

  /**
   * One manual control on many breakers in one transaction (a few statements however many): each is changed and
   * audited as on its own, and an unknown id is a 404 in its place of the answer (in the order asked). The live
   * messages of all of them leave together, batched into as few NOTIFYs as fit.
   */
  async manualMany(req: AppRequest, ids: readonly number[], action: ManualAction): Promise<(BreakerConfigView | HttpException)[]> {
    const actor = req.user!;
    const reason = manualReason(action, actor);
    const refused = new Map<number, HttpException>();
    const configs = await this.dataSource.transaction(async (manager) => {
      // locked in id order, so that two controls of overlapping breakers cannot wait on each other
      const locked = await manager.find(BreakerConfigEntity, {
        where: { id: In(ids) },
        order: { id: 'ASC' },
        lock: { mode: 'pessimistic_write' },
      });
      const before = locked.filter((config) => {
        const refusal = refuseScraped(config);
        if (refusal) refused.set(config.id, refusal);
        return !refusal;
      });
      if (before.length === 0) return [];
      const found = before.map((config) => config.id);
      await manager.update(BreakerConfigEntity, { id: In(found) }, { override: OVERRIDE_AFTER[action], version: () => 'version + 1' });
      // an agent's breaker: the revision its instances apply controls by, and the Reset they must not miss
      const agents = before.filter((config) => config.source === 'agent').map((config) => config.id);
      if (agents.length > 0) {
        await manager.update(BreakerConfigEntity, { id: In(agents) }, { revision: NEXT_REVISION });
        if (action === 'reset') await manager.update(BreakerConfigEntity, { id: In(agents) }, { resetRevision: () => 'revision' });
      }
      await this.audit.recordMany(
        req,
        before.map((config) => ({
          action: `breaker.${action}`,
          targetType: 'circuit_breaker',
          targetId: String(config.id),
          before: { state: this.stateOf(config), override: config.override },
          after: { override: OVERRIDE_AFTER[action] },
        })),
        manager,
      );
      return manager.find(BreakerConfigEntity, { where: { id: In(found) } });
    });
    const sent = configs.filter((config) => config.source === 'agent');
    // the hub's own breakers journal the move they make; an agent's, that the control was sent to its instances
    await this.fleetRepository.journal(
      sent.map((config) => ({
        configId: config.id,
        from: this.fleetFigures.stateOf(config.id),
        to: STATE_AFTER[action],
        reason: `${reason}: sent to every instance of ${config.service}`,
        at: new Date().toISOString(),
        serviceInstance: null,
      })),
    );
    const views = new Map(
      configs.map((config) => {
        if (config.source === 'hub') this.registry.apply(config, { action, reason, journal: true, actorId: actor.id });
        else this.fleet.keep(config);
        return [config.id, this.announcer.view(config)] as const;
      }),
    );
    await Promise.all([...views.values()].map((view) => this.announcer.announce(view, { action, reason })));
    return ids.map((id) => views.get(id) ?? refused.get(id) ?? new NotFoundException(`No circuit breaker with id ${id}`));
  }

  /**
   * A breaker's state as this replica sees it: its engine's, or its instances' merged. The hub's engine is first
   * brought to the row as locked (BreakerRegistry.catchUp): another replica's control may have committed while its
   * message is still on the way here, and the control applied next must move the breaker from the database's
   * state, not from this replica's older one (a Force open right after another replica's Reset is an opening,
   * journalled and notified).
   */
  private stateOf(config: BreakerConfigEntity): BreakerStateName {
    if (config.source !== 'hub') return this.fleetFigures.stateOf(config.id);
    return this.registry.catchUp(config)?.state ?? 'CLOSED';
  }

  /**
   * New settings for an agent's breaker, in its library's words, kept with the configuration and pushed to every
   * instance with the next reply (the instances say in their next reports which they took). Audited and announced
   * like the hub's own settings.
   */
  async updateLibrarySettings(
    req: AppRequest,
    id: number,
    { librarySettings }: z.infer<typeof updateLibrarySettingsSchema>,
  ): Promise<BreakerConfigView> {
    const updated = await this.dataSource.transaction(async (manager) => {
      const before = await manager.findOne(BreakerConfigEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!before) throw new NotFoundException(`No circuit breaker with id ${id}`);
      const refusal = refuseScraped(before);
      if (refusal) throw refusal;
      if (before.source === 'hub') {
        throw new ConflictException(
          `Circuit breaker ${before.name} runs in the hub: change its failureThreshold, timeout, recoveryTime or successThreshold`,
        );
      }
      const settings = { ...before.librarySettings, ...librarySettings };
      await manager.update(
        BreakerConfigEntity,
        { id },
        { librarySettings: settings, revision: NEXT_REVISION, version: () => 'version + 1' },
      );
      const after = await manager.findOneByOrFail(BreakerConfigEntity, { id });
      await this.audit.recordMany(
        req,
        [
          {
            action: 'breaker.update',
            targetType: 'circuit_breaker',
            targetId: String(id),
            before: { librarySettings: before.librarySettings },
            after: { librarySettings: settings },
          },
        ],
        manager,
      );
      return after;
    });
    return this.announcer.announceChange(updated);
  }
}
