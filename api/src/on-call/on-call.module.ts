import { Module } from '@nestjs/common';
import { SchedulesController } from './schedules.controller';
import { SchedulesService } from './schedules.service';

/** On call (being built): schedules of who is on call. */
@Module({
  controllers: [SchedulesController],
  providers: [SchedulesService],
})
export class OnCallModule {}
