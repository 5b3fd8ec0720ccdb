import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import type { z } from 'zod';
import { alertGroupQuerySchema, responseTimesQuerySchema, silenceSchema, type AlertGroupQuery } from '@cbh/contracts';
import { RequirePermission, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { AlertGroupsService } from './alert-groups.service';

/**
 * Alert groups, with a session or a token: read with circuit_breaker_view, acted on with circuit_breaker_operate; a
 * domain's groups also need domain_management (checked per group by the service).
 */
@Controller('alert-groups')
export class AlertGroupsController {
  constructor(private readonly groups: AlertGroupsService) {}

  @Get()
  @RequirePermission('circuit_breaker_view')
  list(@Req() req: AppRequest, @Query(new ZodPipe(alertGroupQuerySchema)) query: AlertGroupQuery) {
    return this.groups.list(query, req.user!);
  }

  @Get('summary')
  @RequirePermission('circuit_breaker_view')
  summary(@Req() req: AppRequest) {
    return this.groups.summary(req.user!);
  }

  @Get('response-times')
  @RequirePermission('circuit_breaker_view')
  responseTimes(@Req() req: AppRequest, @Query(new ZodPipe(responseTimesQuerySchema)) query: z.infer<typeof responseTimesQuerySchema>) {
    return this.groups.responseTimes(query.days, req.user!);
  }

  @Get(':id')
  @RequirePermission('circuit_breaker_view')
  one(@Req() req: AppRequest, @Param('id', ParseIntPipe) id: number) {
    return this.groups.one(id, req.user!);
  }

  @Post(':id/acknowledge')
  @HttpCode(200)
  @RequirePermission('circuit_breaker_operate')
  acknowledge(@Req() req: AppRequest, @Param('id', ParseIntPipe) id: number) {
    return this.groups.act(req, id, 'acknowledge');
  }

  @Post(':id/unacknowledge')
  @HttpCode(200)
  @RequirePermission('circuit_breaker_operate')
  unacknowledge(@Req() req: AppRequest, @Param('id', ParseIntPipe) id: number) {
    return this.groups.act(req, id, 'unacknowledge');
  }

  @Post(':id/resolve')
  @HttpCode(200)
  @RequirePermission('circuit_breaker_operate')
  resolve(@Req() req: AppRequest, @Param('id', ParseIntPipe) id: number) {
    return this.groups.act(req, id, 'resolve');
  }

  @Post(':id/silence')
  @HttpCode(200)
  @RequirePermission('circuit_breaker_operate')
  silence(
    @Req() req: AppRequest,
    @Param('id', ParseIntPipe) id: number,
    @Body(new ZodPipe(silenceSchema)) body: z.infer<typeof silenceSchema>,
  ) {
    return this.groups.act(req, id, 'silence', body.minutes);
  }
}
