import { Controller, Get, Query } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { auditQuerySchema } from '@cbh/contracts';
import type { z } from 'zod';
import { RequirePermission, ZodPipe } from '../../platform';
import { AuditEntryEntity } from './entities/audit-entry.entity';

@Controller('audit')
export class AuditController {
  constructor(private readonly dataSource: DataSource) {}

  /** The audit trail, newest first, filterable by actor e-mail, action and time range. */
  @Get()
  @RequirePermission('audit_access')
  async list(@Query(new ZodPipe(auditQuerySchema)) query: z.infer<typeof auditQuerySchema>) {
    const builder = this.dataSource.getRepository(AuditEntryEntity).createQueryBuilder('entry');
    if (query.actor) builder.andWhere('entry.actor_email = :actor', { actor: query.actor.toLowerCase() });
    if (query.action) builder.andWhere('entry.action = :action', { action: query.action });
    if (query.from) builder.andWhere('entry.created_at >= :from', { from: query.from });
    if (query.to) builder.andWhere('entry.created_at <= :to', { to: query.to });
    const [entries, total] = await builder
      .orderBy('entry.created_at', 'DESC')
      .addOrderBy('entry.id', 'DESC')
      .skip((query.page - 1) * query.pageSize)
      .take(query.pageSize)
      .getManyAndCount();
    return { entries, total, page: query.page, pageSize: query.pageSize };
  }
}
