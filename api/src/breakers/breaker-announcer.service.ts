import { Injectable } from '@nestjs/common';
import type { BreakerConfigView, ManualAction } from '@cbh/contracts';
import { RealtimeBus, waitAtMost } from '../platform';
import { BreakerRegistry } from './breaker-registry.service';
import type { BreakerConfigEntity } from './entities/breaker-config.entity';
import { FleetCatalog } from './fleet/fleet-catalog.service';
import { FleetFigures } from './fleet/fleet-figures.service';

/** How long a change waits for the journal to take the move it made (see BreakerAnnouncer.announce). */
export const JOURNAL_WAIT_MS = 1000;

/**
 * A breaker as the screens see it, and the news of its change: applied on this replica, then told to the other
 * replicas and the screens over the bus. Changing (BreakersService) and manual control (BreakerControl) both end here.
 */
@Injectable()
export class BreakerAnnouncer {
  constructor(
    private readonly registry: BreakerRegistry,
    private readonly fleet: FleetCatalog,
    private readonly fleetFigures: FleetFigures,
    private readonly bus: RealtimeBus,
  ) {}

  view(config: BreakerConfigEntity): BreakerConfigView {
    const external = config.source !== 'hub';
    const breaker = external ? undefined : (this.registry.get(config.id) ?? this.registry.apply(config));
    return {
      id: config.id,
      name: config.name,
      type: config.type,
      failureThreshold: config.failureThreshold,
      timeout: config.timeout,
      recoveryTime: config.recoveryTime,
      successThreshold: config.successThreshold,
      maxConcurrentCalls: config.maxConcurrentCalls,
      maxQueue: config.maxQueue,
      minimumCalls: config.minimumCalls,
      slowCallDuration: config.slowCallDuration,
      state: external ? this.fleetFigures.stateOf(config.id) : (breaker?.state ?? 'CLOSED'),
      override:
        config.source === 'scrape'
          ? (this.fleetFigures.overrideOf(config.id) ?? 'none')
          : external
            ? config.override
            : (breaker?.override ?? config.override),
      version: config.version,
      source: config.source,
      service: config.service,
      library: config.library,
      libraryType: config.libraryType,
      librarySettings: external ? { ...config.reportedSettings, ...config.librarySettings } : null,
      createdAt: config.createdAt.toISOString(),
      updatedAt: config.updatedAt.toISOString(),
    };
  }

  /** Applies a committed configuration on this replica and tells the others and the screens. */
  announceChange(config: BreakerConfigEntity): Promise<BreakerConfigView> {
    if (config.source === 'hub') this.registry.apply(config);
    else this.fleet.keep(config);
    return this.announce(this.view(config));
  }

  async announceRemoval(id: number): Promise<void> {
    this.registry.remove(id);
    this.fleet.forget(id);
    await this.bus.publish({ type: 'configUpdated', data: { configId: id, config: null } });
  }

  /**
   * Tells of the change once the move it made (a control's opening, say) is journalled: the move's stateChange is
   * published in that turn, so both leave in one NOTIFY and each /ws socket gets them in one write, not two. A journal
   * that is slow to take the move (a backlog after an outage, a transaction holding the breaker's row) holds the
   * change, and the caller's answer, for JOURNAL_WAIT_MS at most: then it goes on its own.
   */
  async announce(view: BreakerConfigView, manual?: { action: ManualAction; reason: string }): Promise<BreakerConfigView> {
    const journalled = this.registry.journalled(view.id);
    if (journalled) await waitAtMost(journalled, JOURNAL_WAIT_MS);
    await this.bus.publish({ type: 'configUpdated', data: { configId: view.id, config: view, ...(manual ? { manual } : {}) } });
    return view;
  }
}
