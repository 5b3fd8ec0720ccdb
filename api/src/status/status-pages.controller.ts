import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { z } from 'zod';
import {
  createIncidentSchema,
  createStatusPageSchema,
  incidentListQuerySchema,
  incidentUpdateSchema,
  updateStatusPageSchema,
  type CreateIncident,
  type CreateStatusPage,
  type IncidentListQuery,
  type IncidentUpdateInput,
  type UpdateStatusPage,
} from '@cbh/contracts';
import { RequireAnyPermission, RequirePermission, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { IncidentsService } from './incidents.service';
import { StatusPagesService } from './status-pages.service';
import { SubscriptionsService } from './subscriptions.service';

const id = (name: string) =>
  new ZodPipe(
    z.coerce
      .number({ message: 'must be an id' })
      .int('must be an id')
      .positive('must be an id')
      .max(2 ** 31 - 1),
    name,
  );
const breakerQuery = z.strictObject({
  breaker: z.coerce
    .number({ message: 'must be a breaker id' })
    .int()
    .positive()
    .max(2 ** 31 - 1),
});

/**
 * Status pages are an operator's publication: circuit_breaker_admin makes and changes them (a page that shows
 * domains also needs domain_management, judged by the service), lists their subscribers and removes one.
 * Incidents are operations: circuit_breaker_operate opens and updates them (an admin reads them too).
 */
@Controller('status-pages')
export class StatusPagesController {
  constructor(
    private readonly pages: StatusPagesService,
    private readonly incidents: IncidentsService,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  @Get()
  @RequirePermission('circuit_breaker_admin')
  list() {
    return this.pages.list();
  }

  @Post()
  @RequirePermission('circuit_breaker_admin')
  create(@Req() req: AppRequest, @Body(new ZodPipe(createStatusPageSchema)) body: CreateStatusPage) {
    return this.pages.create(req, body);
  }

  @Get(':id')
  @RequireAnyPermission('circuit_breaker_admin', 'circuit_breaker_operate')
  one(@Param('id', id('id')) pageId: number) {
    return this.pages.one(pageId);
  }

  @Patch(':id')
  @RequirePermission('circuit_breaker_admin')
  update(@Req() req: AppRequest, @Param('id', id('id')) pageId: number, @Body(new ZodPipe(updateStatusPageSchema)) body: UpdateStatusPage) {
    return this.pages.update(req, pageId, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('circuit_breaker_admin')
  async remove(@Req() req: AppRequest, @Param('id', id('id')) pageId: number) {
    await this.pages.remove(req, pageId);
  }

  @Get(':id/incidents')
  @RequireAnyPermission('circuit_breaker_admin', 'circuit_breaker_operate')
  listIncidents(@Param('id', id('id')) pageId: number, @Query(new ZodPipe(incidentListQuerySchema)) query: IncidentListQuery) {
    return this.incidents.list(pageId, query);
  }

  @Post(':id/incidents')
  @RequirePermission('circuit_breaker_operate')
  openIncident(
    @Req() req: AppRequest,
    @Param('id', id('id')) pageId: number,
    @Body(new ZodPipe(createIncidentSchema)) body: CreateIncident,
  ) {
    return this.incidents.create(req, pageId, body);
  }

  @Post(':id/incidents/:incidentId/updates')
  @RequirePermission('circuit_breaker_operate')
  postUpdate(
    @Req() req: AppRequest,
    @Param('id', id('id')) pageId: number,
    @Param('incidentId', id('incidentId')) incidentId: number,
    @Body(new ZodPipe(incidentUpdateSchema)) body: IncidentUpdateInput,
  ) {
    return this.incidents.addUpdate(req, pageId, incidentId, body);
  }

  @Get(':id/subscribers')
  @RequirePermission('circuit_breaker_admin')
  async subscribers(@Param('id', id('id')) pageId: number) {
    await this.pages.find(pageId);
    return this.subscriptions.list(pageId);
  }

  @Delete(':id/subscribers/:subscriberId')
  @HttpCode(204)
  @RequirePermission('circuit_breaker_admin')
  async removeSubscriber(
    @Req() req: AppRequest,
    @Param('id', id('id')) pageId: number,
    @Param('subscriberId', id('subscriberId')) subscriberId: number,
  ) {
    await this.subscriptions.remove(req, pageId, subscriberId);
  }
}

/** The components that include a breaker: what its page offers to open an incident on (circuit_breaker_operate). */
@Controller('status-components')
@RequirePermission('circuit_breaker_operate')
export class StatusComponentsController {
  constructor(private readonly pages: StatusPagesService) {}

  @Get()
  including(@Query(new ZodPipe(breakerQuery)) query: z.infer<typeof breakerQuery>) {
    return this.pages.componentsOfBreaker(query.breaker);
  }
}
