import { Body, Controller, Get, Param, ParseIntPipe, Put, Req } from '@nestjs/common';
import { breakerDependenciesSchema, type BreakerDependencies } from '@cbh/contracts';
import { RequirePermission, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { DependenciesService } from './dependencies.service';

/** What a breaker depends on: read by whoever reads breakers, set by circuit_breaker_admin (as a rule is). */
@Controller('circuit-breakers/:id/dependencies')
export class DependenciesController {
  constructor(private readonly dependencies: DependenciesService) {}

  @Get()
  @RequirePermission('circuit_breaker_view')
  of(@Req() req: AppRequest, @Param('id', ParseIntPipe) id: number) {
    return this.dependencies.of(id, req.user!);
  }

  @Put()
  @RequirePermission('circuit_breaker_admin')
  replace(
    @Req() req: AppRequest,
    @Param('id', ParseIntPipe) id: number,
    @Body(new ZodPipe(breakerDependenciesSchema)) body: BreakerDependencies,
  ) {
    return this.dependencies.replace(req, id, body);
  }
}
