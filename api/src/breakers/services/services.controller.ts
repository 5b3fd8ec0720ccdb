import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
  ServiceUnavailableException,
  UseGuards,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { createServiceSchema, listPageQuerySchema, type ListPageQuery, serviceIdSchema, updateServiceSchema } from '@cbh/contracts';
import { linkNextPage, Public, RequirePermission, ZodPipe } from '../../platform';
import type { AppRequest } from '../../identity';
import { OwnCallsOnly } from './own-call';
import { ServicesService } from './services.service';

const serviceId = new ZodPipe(serviceIdSchema, 'id');

@Controller()
export class ServicesController {
  constructor(private readonly services: ServicesService) {}

  @Get('services')
  @RequirePermission('circuit_breaker_view')
  async list(
    @Req() req: AppRequest,
    @Res({ passthrough: true }) res: FastifyReply,
    @Query(new ZodPipe(listPageQuerySchema)) page: ListPageQuery,
  ) {
    const services = await this.services.list(page);
    linkNextPage(req, res, services, page);
    return services;
  }

  @Post('services')
  @RequirePermission('circuit_breaker_admin')
  create(@Req() req: AppRequest, @Body(new ZodPipe(createServiceSchema)) body: z.infer<typeof createServiceSchema>) {
    return this.services.create(req, body);
  }

  @Patch('services/:id')
  @RequirePermission('circuit_breaker_admin')
  update(
    @Req() req: AppRequest,
    @Param('id', serviceId) id: number,
    @Body(new ZodPipe(updateServiceSchema)) body: z.infer<typeof updateServiceSchema>,
  ) {
    return this.services.update(req, id, body);
  }

  @Delete('services/:id')
  @RequirePermission('circuit_breaker_admin')
  @HttpCode(204)
  async remove(@Req() req: AppRequest, @Param('id', serviceId) id: number) {
    await this.services.remove(req, id);
  }

  @Post('services/:id/test')
  @RequirePermission('circuit_breaker_operate')
  @HttpCode(200)
  test(@Param('id', serviceId) id: number) {
    return this.services.test(id);
  }

  /**
   * The built-in downstream the demo services call: slow by about averageResponseTime, failing at failureRate. It
   * needs no session (the API calls itself without one) but answers only this process's own service tests.
   */
  @Get('chaos/:id')
  @Public()
  @UseGuards(OwnCallsOnly)
  async chaos(@Param('id', serviceId) id: number) {
    const { delayMs, fail } = await this.services.chaos(id);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (fail) throw new ServiceUnavailableException('Simulated failure');
    return { ok: true, delayMs };
  }
}
