import { Injectable } from '@nestjs/common';
import { BreakerRegistry } from './breaker-registry.service';
import { FleetFigures } from './fleet/fleet-figures.service';
import { FleetRepository } from './fleet/fleet.repository';

/**
 * Lines in a breaker's journal that are not moves: written at the state the breaker is in (from and to the same, so no
 * event is raised), as the controls sent to an agent's instances are. A drill's faults are journalled this way.
 */
@Injectable()
export class BreakerNotes {
  constructor(
    private readonly registry: BreakerRegistry,
    private readonly figures: FleetFigures,
    private readonly fleet: FleetRepository,
  ) {}

  async note(notes: readonly { configId: number; reason: string }[]): Promise<void> {
    const at = new Date().toISOString();
    await this.fleet.journal(
      notes.map(({ configId, reason }) => {
        const state = this.registry.get(configId)?.state ?? this.figures.stateOf(configId);
        return { configId, from: state, to: state, reason, at, serviceInstance: null };
      }),
    );
  }
}
