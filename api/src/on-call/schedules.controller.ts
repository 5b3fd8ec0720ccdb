import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query, Req } from '@nestjs/common';
import {
  createScheduleSchema,
  onCallQuerySchema,
  shiftsQuerySchema,
  updateScheduleSchema,
  type CreateSchedule,
  type UpdateSchedule,
} from '@cbh/contracts';
import type { z } from 'zod';
import { RequireAnyPermission, RequirePermission, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { SchedulesService } from './schedules.service';

const id = new ParseUUIDPipe({ version: '4' });

/** Schedules are kept by circuit_breaker_admin, as escalation policies will be; who is on call is read by those who act on alerts. */
@Controller('schedules')
export class SchedulesController {
  constructor(private readonly schedules: SchedulesService) {}

  @Get()
  @RequireAnyPermission('circuit_breaker_admin', 'circuit_breaker_operate')
  list() {
    return this.schedules.list();
  }

  @Post()
  @RequirePermission('circuit_breaker_admin')
  create(@Req() req: AppRequest, @Body(new ZodPipe(createScheduleSchema)) body: CreateSchedule) {
    return this.schedules.create(req, body);
  }

  @Get(':id')
  @RequireAnyPermission('circuit_breaker_admin', 'circuit_breaker_operate')
  one(@Param('id', id) scheduleId: string) {
    return this.schedules.one(scheduleId);
  }

  @Get(':id/on-call')
  @RequireAnyPermission('circuit_breaker_admin', 'circuit_breaker_operate')
  async onCall(@Param('id', id) scheduleId: string, @Query(new ZodPipe(onCallQuerySchema)) query: z.infer<typeof onCallQuerySchema>) {
    const at = query.at ? new Date(query.at) : new Date();
    return { at: at.toISOString(), user: await this.schedules.onCall(scheduleId, at) };
  }

  @Get(':id/shifts')
  @RequireAnyPermission('circuit_breaker_admin', 'circuit_breaker_operate')
  shifts(@Param('id', id) scheduleId: string, @Query(new ZodPipe(shiftsQuerySchema)) query: z.infer<typeof shiftsQuerySchema>) {
    return this.schedules.shifts(scheduleId, new Date(query.from), new Date(query.to));
  }

  @Patch(':id')
  @RequirePermission('circuit_breaker_admin')
  update(@Req() req: AppRequest, @Param('id', id) scheduleId: string, @Body(new ZodPipe(updateScheduleSchema)) body: UpdateSchedule) {
    return this.schedules.update(req, scheduleId, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('circuit_breaker_admin')
  async remove(@Req() req: AppRequest, @Param('id', id) scheduleId: string) {
    await this.schedules.remove(req, scheduleId);
  }
}
