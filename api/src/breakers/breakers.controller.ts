import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type z, z as zod } from 'zod';
import {
  breakerIdSchema,
  breakerListQuerySchema,
  createBreakerSchema,
  journalQuerySchema,
  type BreakerInstancesPage,
  type BreakerListQuery,
  updateBreakerSettingsSchema,
  updateLibrarySettingsSchema,
} from '@cbh/contracts';
import { linkNextPage, RequirePermission, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { BreakerControl } from './breaker-control.service';
import { BreakersService } from './breakers.service';
import { FleetFigures } from './fleet/fleet-figures.service';

/** PATCH takes the hub's four settings, or an agent's breaker's settings in its library's words. */
const updateSchema = zod.union([updateLibrarySettingsSchema, updateBreakerSettingsSchema]);
const hubSettings = new ZodPipe(updateBreakerSettingsSchema);
const librarySettings = new ZodPipe(updateLibrarySettingsSchema);

/** Validates with the one schema the body means, so a 400 names its fields rather than a union's failure. */
class UpdatePipe extends ZodPipe<typeof updateSchema> {
  override transform(value: unknown): z.infer<typeof updateSchema> {
    const isLibrary = typeof value === 'object' && value !== null && 'librarySettings' in value;
    return isLibrary ? librarySettings.transform(value) : hubSettings.transform(value);
  }
}

const breakerId = new ZodPipe(breakerIdSchema, 'id');

@Controller('circuit-breakers')
export class BreakersController {
  constructor(
    private readonly breakers: BreakersService,
    private readonly control: BreakerControl,
    private readonly figures: FleetFigures,
  ) {}

  @Get()
  @RequirePermission('circuit_breaker_view')
  async list(
    @Req() req: AppRequest,
    @Res({ passthrough: true }) res: FastifyReply,
    @Query(new ZodPipe(breakerListQuerySchema)) query: BreakerListQuery,
  ) {
    const breakers = await this.breakers.list(query);
    linkNextPage(req, res, breakers, query);
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
    @Body(new UpdatePipe(updateSchema)) body: z.infer<typeof updateSchema>,
  ) {
    if ('librarySettings' in body) return this.control.updateLibrarySettings(req, id, body);
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
    return this.control.manual(req, id, 'force-open');
  }

  @Post(':id/force-closed')
  @RequirePermission('circuit_breaker_operate')
  @HttpCode(200)
  forceClosed(@Req() req: AppRequest, @Param('id', breakerId) id: number) {
    return this.control.manual(req, id, 'force-closed');
  }

  @Post(':id/disable')
  @RequirePermission('circuit_breaker_operate')
  @HttpCode(200)
  disable(@Req() req: AppRequest, @Param('id', breakerId) id: number) {
    return this.control.manual(req, id, 'disable');
  }

  @Post(':id/reset')
  @RequirePermission('circuit_breaker_operate')
  @HttpCode(200)
  reset(@Req() req: AppRequest, @Param('id', breakerId) id: number) {
    return this.control.manual(req, id, 'reset');
  }

  /** An agent's or scraped breaker's instances, each with its figures, and the live ones' merged figures. */
  @Get(':id/instances')
  @RequirePermission('circuit_breaker_view')
  async instances(@Param('id', breakerId) id: number): Promise<BreakerInstancesPage> {
    await this.breakers.find(id);
    return (await this.figures.instancesOf(id)) ?? { instances: [], merged: null };
  }

  @Get(':id/transitions')
  @RequirePermission('circuit_breaker_view')
  transitions(@Param('id', breakerId) id: number, @Query(new ZodPipe(journalQuerySchema)) query: z.infer<typeof journalQuerySchema>) {
    return this.breakers.transitions(id, query);
  }
}
