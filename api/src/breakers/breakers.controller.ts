import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  breakerIdSchema,
  createBreakerSchema,
  journalQuerySchema,
  listPageQuerySchema,
  type ListPageQuery,
  updateBreakerSettingsSchema,
} from '@cbh/contracts';
import { linkNextPage } from '../common/paging';
import { RequirePermission } from '../auth/access.decorator';
import type { AppRequest } from '../auth/session-user';
import { ZodPipe } from '../common/validation/zod.pipe';
import { BreakersService } from './breakers.service';

const breakerId = new ZodPipe(breakerIdSchema, 'id');

@Controller('circuit-breakers')
export class BreakersController {
  constructor(private readonly breakers: BreakersService) {}

  @Get()
  @RequirePermission('circuit_breaker_view')
  async list(
    @Req() req: AppRequest,
    @Res({ passthrough: true }) res: FastifyReply,
    @Query(new ZodPipe(listPageQuerySchema)) page: ListPageQuery,
  ) {
    const breakers = await this.breakers.list(page);
    linkNextPage(req, res, breakers, page);
    return breakers;
  }

  @Post()
  @RequirePermission('circuit_breaker_admin')
  create(@Req() req: AppRequest, @Body(new ZodPipe(createBreakerSchema)) body: z.infer<typeof createBreakerSchema>) {
    return this.breakers.create(req, body);
  }

  @Patch(':id')
  @RequirePermission('circuit_breaker_admin')
  update(
    @Req() req: AppRequest,
    @Param('id', breakerId) id: number,
    @Body(new ZodPipe(updateBreakerSettingsSchema)) body: z.infer<typeof updateBreakerSettingsSchema>,
  ) {
    return this.breakers.update(req, id, body);
  }

  @Delete(':id')
  @RequirePermission('circuit_breaker_admin')
  @HttpCode(204)
  async remove(@Req() req: AppRequest, @Param('id', breakerId) id: number) {
    await this.breakers.remove(req, id);
  }

  /** Manual control is an operator's (circuit_breaker_operate): changing or deleting a configuration is an admin's. */
  @Post(':id/force-open')
  @RequirePermission('circuit_breaker_operate')
  @HttpCode(200)
  forceOpen(@Req() req: AppRequest, @Param('id', breakerId) id: number) {
    return this.breakers.manual(req, id, 'force-open');
  }

  @Post(':id/force-closed')
  @RequirePermission('circuit_breaker_operate')
  @HttpCode(200)
  forceClosed(@Req() req: AppRequest, @Param('id', breakerId) id: number) {
    return this.breakers.manual(req, id, 'force-closed');
  }

  @Post(':id/disable')
  @RequirePermission('circuit_breaker_operate')
  @HttpCode(200)
  disable(@Req() req: AppRequest, @Param('id', breakerId) id: number) {
    return this.breakers.manual(req, id, 'disable');
  }

  @Post(':id/reset')
  @RequirePermission('circuit_breaker_operate')
  @HttpCode(200)
  reset(@Req() req: AppRequest, @Param('id', breakerId) id: number) {
    return this.breakers.manual(req, id, 'reset');
  }

  @Get(':id/transitions')
  @RequirePermission('circuit_breaker_view')
  transitions(@Param('id', breakerId) id: number, @Query(new ZodPipe(journalQuerySchema)) query: z.infer<typeof journalQuerySchema>) {
    return this.breakers.transitions(id, query);
  }
}
