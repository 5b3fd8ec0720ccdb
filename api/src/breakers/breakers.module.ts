import { Module } from '@nestjs/common';
import { ReplicasModule } from '../platform';
import { BreakerAnnouncer } from './breaker-announcer.service';
import { BreakerFaults } from './breaker-faults';
import { BreakerNotes } from './breaker-notes';
import { BreakerControl } from './breaker-control.service';
import { BreakerRegistry } from './breaker-registry.service';
import { BreakerConfigsRepository } from './breaker-configs.repository';
import { BreakerTransitionsRepository } from './breaker-transitions.repository';
import { BreakersController } from './breakers.controller';
import { BreakersService } from './breakers.service';
import { TransitionJournal } from './transition-journal';
import { FleetCatalog } from './fleet/fleet-catalog.service';
import { FleetFigures } from './fleet/fleet-figures.service';
import { FleetRepository } from './fleet/fleet.repository';

@Module({
  imports: [ReplicasModule],
  controllers: [BreakersController],
  providers: [
    BreakerRegistry,
    BreakerFaults,
    BreakerNotes,
    BreakersService,
    BreakerAnnouncer,
    BreakerControl,
    BreakerConfigsRepository,
    BreakerTransitionsRepository,
    TransitionJournal,
    FleetCatalog,
    FleetFigures,
    FleetRepository,
  ],
  exports: [BreakerRegistry, BreakerFaults, BreakerNotes, BreakersService, BreakerControl, FleetCatalog, FleetFigures, FleetRepository],
})
export class BreakersModule {}
