import { Global, Module } from '@nestjs/common';
import { ReplicasModule } from '../replicas/replicas.module';
import { HubEvents } from './hub-events.repository';
import { NotifyChannel } from './notify-channel';
import { RealtimeBus } from './realtime-bus.service';

/**
 * Global because every feature that changes shared state (breakers, services, load tests, metrics, users)
 * publishes on it so that other replicas and /ws clients hear of the change.
 */
@Global()
@Module({ imports: [ReplicasModule], providers: [RealtimeBus, NotifyChannel, HubEvents], exports: [RealtimeBus, HubEvents] })
export class BusModule {}
