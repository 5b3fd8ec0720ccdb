import { Module } from '@nestjs/common';
import { MailModule } from '../../platform';
import { ElevationController } from './elevation.controller';
import { ElevationRepository } from './elevation.repository';
import { ElevationService } from './elevation.service';

@Module({ imports: [MailModule], controllers: [ElevationController], providers: [ElevationService, ElevationRepository] })
export class ElevationModule {}
