import { Controller, Get, Param, ParseIntPipe, Post, Req } from '@nestjs/common';
import { RequirePermission } from '../platform';
import type { AppRequest } from '../identity';
import { DrillDefinitionsService } from './drill-definitions.service';

/**
 * Saved drills, kept by the configuration document: listed and run by circuit_breaker_admin alone, as drills are (a
 * run hurts real traffic, and even the list tells which breakers a drill would hit).
 */
@Controller('drill-definitions')
export class DrillDefinitionsController {
  constructor(private readonly definitions: DrillDefinitionsService) {}

  @Get()
  @RequirePermission('circuit_breaker_admin')
  list() {
    return this.definitions.list();
  }

  /** Starts the saved drill at once, as POST /api/drills would: 201 with the drill. */
  @Post(':id/run')
  @RequirePermission('circuit_breaker_admin')
  run(@Req() req: AppRequest, @Param('id', ParseIntPipe) id: number) {
    return this.definitions.run(req, id);
  }
}
