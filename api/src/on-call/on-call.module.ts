import { Module } from '@nestjs/common';
import { ShiftFeedAddressController, ShiftFeedController } from './shift-feeds.controller';
import { ShiftFeedsService } from './shift-feeds.service';
import { SchedulesController } from './schedules.controller';
import { SchedulesService } from './schedules.service';

/** On call (being built): schedules of who is on call, and each person's calendar of their shifts. */
@Module({
  controllers: [SchedulesController, ShiftFeedAddressController, ShiftFeedController],
  providers: [SchedulesService, ShiftFeedsService],
})
export class OnCallModule {}
