import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Req } from '@nestjs/common';
import { createDrillSchema, type CreateDrill } from '@cbh/contracts';
import { RequirePermission, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { DrillsService } from './drills.service';

/** Drills hurt real traffic: run, read and stopped by circuit_breaker_admin alone. */
@Controller('drills')
export class DrillsController {
  constructor(private readonly drills: DrillsService) {}

  @Post()
  @RequirePermission('circuit_breaker_admin')
  start(@Req() req: AppRequest, @Body(new ZodPipe(createDrillSchema)) body: CreateDrill) {
    return this.drills.start(req, body);
  }

  @Get()
  @RequirePermission('circuit_breaker_admin')
  list() {
    return this.drills.list();
  }

  /** The kill switch: every running drill stopped, every fault gone within a reporting period. */
  @Post('stop-all')
  @HttpCode(200)
  @RequirePermission('circuit_breaker_admin')
  stopAll(@Req() req: AppRequest) {
    return this.drills.stopAll(req);
  }

  @Get(':id')
  @RequirePermission('circuit_breaker_admin')
  detail(@Param('id', ParseIntPipe) id: number) {
    return this.drills.detail(id);
  }

  @Post(':id/stop')
  @HttpCode(200)
  @RequirePermission('circuit_breaker_admin')
  stop(@Req() req: AppRequest, @Param('id', ParseIntPipe) id: number) {
    return this.drills.stop(req, id);
  }
}
