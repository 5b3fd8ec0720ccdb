import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { z } from 'zod';
import {
  addDomainSchema,
  domainAlertIdSchema,
  domainIdSchema,
  domainListQuerySchema,
  domainRecordsQuerySchema,
  sslCertificateIdSchema,
  updateCertificateSchema,
} from '@cbh/contracts';
import { RequirePermission, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { DomainsService } from './domains.service';

const domainId = new ZodPipe(domainIdSchema, 'id');
const alertId = new ZodPipe(domainAlertIdSchema, 'id');
const certificateId = new ZodPipe(sslCertificateIdSchema, 'id');
const recordsQuery = new ZodPipe(domainRecordsQuerySchema);
type RecordsQuery = z.infer<typeof domainRecordsQuerySchema>;

/** Domains and what their checks found: everything here needs domain_management, and every change is audited. */
@Controller()
@RequirePermission('domain_management')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @Get('domains')
  list(@Query(new ZodPipe(domainListQuerySchema)) query: z.infer<typeof domainListQuerySchema>) {
    return this.domains.list(query.limit);
  }

  @Get('domain-summary')
  summary() {
    return this.domains.summary();
  }

  @Get('domains/:id')
  detail(@Param('id', domainId) id: number) {
    return this.domains.detail(id);
  }

  @Post('domains')
  create(@Req() req: AppRequest, @Body(new ZodPipe(addDomainSchema)) body: z.infer<typeof addDomainSchema>) {
    return this.domains.create(req, body.domain);
  }

  @Delete('domains/:id')
  @HttpCode(204)
  async remove(@Req() req: AppRequest, @Param('id', domainId) id: number) {
    await this.domains.remove(req, id);
  }

  /** 202: the look-up itself happens in the domain's next round, which is due at once. */
  @Post('domains/:id/verify')
  @HttpCode(202)
  verify(@Req() req: AppRequest, @Param('id', domainId) id: number) {
    return this.domains.verify(req, id);
  }

  @Get('domain-verifications')
  verifications(@Query(recordsQuery) query: RecordsQuery) {
    return this.domains.listVerifications(query);
  }

  @Get('ssl-certificates')
  certificates(@Query(recordsQuery) query: RecordsQuery) {
    return this.domains.listCertificates(query);
  }

  @Patch('ssl-certificates/:id')
  updateCertificate(
    @Req() req: AppRequest,
    @Param('id', certificateId) id: number,
    @Body(new ZodPipe(updateCertificateSchema)) body: z.infer<typeof updateCertificateSchema>,
  ) {
    return this.domains.updateCertificate(req, id, body.autoRenew);
  }

  @Get('dns-records')
  dnsRecords(@Query(recordsQuery) query: RecordsQuery) {
    return this.domains.listDnsRecords(query);
  }

  @Get('subdomains')
  subdomains(@Query(recordsQuery) query: RecordsQuery) {
    return this.domains.listSubdomains(query);
  }

  @Get('domain-monitoring')
  monitoring(@Query(recordsQuery) query: RecordsQuery) {
    return this.domains.listMonitoring(query);
  }

  @Get('domain-alerts')
  alerts(@Query(recordsQuery) query: RecordsQuery) {
    return this.domains.listAlerts(query);
  }

  @Post('domain-alerts/:id/resolve')
  @HttpCode(200)
  resolveAlert(@Req() req: AppRequest, @Param('id', alertId) id: number) {
    return this.domains.resolveAlert(req, id);
  }
}
