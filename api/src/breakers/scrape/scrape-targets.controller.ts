import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import { z } from 'zod';
import { createScrapeTargetSchema, updateScrapeTargetSchema, type CreateScrapeTarget, type UpdateScrapeTarget } from '@cbh/contracts';
import { RequirePermission, ZodPipe } from '../../platform';
import type { AppRequest } from '../../identity';
import { ScrapeTargetsService } from './scrape-targets.service';

const targetId = new ZodPipe(z.coerce.number({ message: 'must be a scrape target id' }).int().positive('must be a scrape target id'), 'id');

/** The Prometheus endpoints the hub scrapes for resilience4j breakers: configuring them is a breaker admin's. */
@Controller('scrape-targets')
export class ScrapeTargetsController {
  constructor(private readonly targets: ScrapeTargetsService) {}

  @Get()
  @RequirePermission('circuit_breaker_admin')
  list() {
    return this.targets.list();
  }

  @Post()
  @RequirePermission('circuit_breaker_admin')
  create(@Req() req: AppRequest, @Body(new ZodPipe(createScrapeTargetSchema)) body: CreateScrapeTarget) {
    return this.targets.create(req, body);
  }

  @Get(':id')
  @RequirePermission('circuit_breaker_admin')
  get(@Param('id', targetId) id: number) {
    return this.targets.get(id);
  }

  @Patch(':id')
  @RequirePermission('circuit_breaker_admin')
  update(@Req() req: AppRequest, @Param('id', targetId) id: number, @Body(new ZodPipe(updateScrapeTargetSchema)) body: UpdateScrapeTarget) {
    return this.targets.update(req, id, body);
  }

  @Delete(':id')
  @RequirePermission('circuit_breaker_admin')
  @HttpCode(204)
  async remove(@Req() req: AppRequest, @Param('id', targetId) id: number) {
    await this.targets.remove(req, id);
  }
}
