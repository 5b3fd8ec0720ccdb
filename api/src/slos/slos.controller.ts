import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  ParseIntPipe,
  Patch,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  createSloSchema,
  sloListQuerySchema,
  sloReportQuerySchema,
  sloServiceReportQuerySchema,
  updateSloSchema,
  type CreateSlo,
  type SloListQuery,
  type SloServiceReportQuery,
} from '@cbh/contracts';
import { RequirePermission, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { monthOf, monthSpan, REPORT_POLICY, reportCsv, reportHtml, serviceReportCsv, serviceReportHtml } from './slo-report';
import { SlosRepository } from './slos.repository';
import { SlosService } from './slos.service';

/** A monthly report as the routes send it: never cached; CSV to download as `file`, or a printable page under its policy. */
function sendReport(res: FastifyReply, format: 'html' | 'csv', file: string, write: { csv: () => string; html: () => string }) {
  res.header('Cache-Control', 'no-store');
  if (format === 'csv') {
    return res.type('text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="${file}"`).send(write.csv());
  }
  return res.type('text/html; charset=utf-8').header('Content-Security-Policy', REPORT_POLICY).send(write.html());
}

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

  /** The month of every SLO of a service (bounded by SLO_LIMITS.slos), one row each: a printable page, or CSV. */
  @Get('report')
  @RequirePermission('circuit_breaker_view')
  async serviceReport(
    @Req() req: AppRequest,
    @Query(new ZodPipe(sloServiceReportQuerySchema)) query: SloServiceReportQuery,
    @Res() res: FastifyReply,
  ) {
    const slos = await this.slos.ofService(req, query.service);
    if (slos.length === 0) throw new NotFoundException(`No SLO of the service ${query.service}`);
    const { from, to } = monthSpan(query.month);
    const days = await this.figures.daysOf(
      slos.map((slo) => slo.id),
      from,
      to,
    );
    const months = slos.map((slo) => ({ slo, month: monthOf(query.month, days.get(slo.id) ?? []) }));
    return sendReport(res, query.format, `slos-${query.service}-${query.month}.csv`, {
      csv: () => serviceReportCsv(query.service, query.month, months),
      html: () => serviceReportHtml(query.service, query.month, months),
    });
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
    return sendReport(res, query.format, `slo-${id}-${query.month}.csv`, {
      csv: () => reportCsv(slo, month),
      html: () => reportHtml(slo, month),
    });
  }
}
