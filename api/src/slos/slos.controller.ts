import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  createSloSchema,
  sloListQuerySchema,
  sloReportQuerySchema,
  updateSloSchema,
  type CreateSlo,
  type SloListQuery,
} from '@cbh/contracts';
import { RequirePermission, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { monthOf, monthSpan, REPORT_POLICY, reportCsv, reportHtml } from './slo-report';
import { SlosRepository } from './slos.repository';
import { SlosService } from './slos.service';

/** SLOs are read by whoever may read breakers, kept by circuit_breaker_admin; domain SLOs also need domain_management. */
@Controller('slos')
export class SlosController {
  constructor(
    private readonly slos: SlosService,
    private readonly figures: SlosRepository,
  ) {}

  @Get()
  @RequirePermission('circuit_breaker_view')
  list(@Req() req: AppRequest, @Query(new ZodPipe(sloListQuerySchema)) query: SloListQuery) {
    return this.slos.list(req, query);
  }

  @Post()
  @RequirePermission('circuit_breaker_admin')
  create(@Req() req: AppRequest, @Body(new ZodPipe(createSloSchema)) body: CreateSlo) {
    return this.slos.create(req, body);
  }

  @Get(':id')
  @RequirePermission('circuit_breaker_view')
  one(@Req() req: AppRequest, @Param('id', ParseIntPipe) id: number) {
    return this.slos.one(req, id);
  }

  @Patch(':id')
  @RequirePermission('circuit_breaker_admin')
  update(@Req() req: AppRequest, @Param('id', ParseIntPipe) id: number, @Body(new ZodPipe(updateSloSchema)) body: Partial<CreateSlo>) {
    return this.slos.update(req, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('circuit_breaker_admin')
  async remove(@Req() req: AppRequest, @Param('id', ParseIntPipe) id: number) {
    await this.slos.remove(req, id);
  }

  /** The month's report: a printable page, or CSV to download (`format=csv`). */
  @Get(':id/report')
  @RequirePermission('circuit_breaker_view')
  async report(
    @Req() req: AppRequest,
    @Param('id', ParseIntPipe) id: number,
    @Query(new ZodPipe(sloReportQuerySchema)) query: z.infer<typeof sloReportQuerySchema>,
    @Res() res: FastifyReply,
  ) {
    const slo = await this.slos.find(req, id);
    const { from, to } = monthSpan(query.month);
    const month = monthOf(query.month, await this.figures.days(id, from, to));
    res.header('Cache-Control', 'no-store');
    if (query.format === 'csv') {
      const file = `slo-${id}-${query.month}.csv`;
      return res
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${file}"`)
        .send(reportCsv(slo, month));
    }
    return res.type('text/html; charset=utf-8').header('Content-Security-Policy', REPORT_POLICY).send(reportHtml(slo, month));
  }
}
