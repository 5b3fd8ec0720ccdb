import { Controller, Get, Query } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { auditQuerySchema, type AuditEntryView } from '@cbh/contracts';
import type { z } from 'zod';
import { RequirePermission, ZodPipe } from '../../platform';
import { UserEntity } from '../users/entities/user.entity';
import { AuditEntryEntity } from './entities/audit-entry.entity';

/** Target types whose id is an account's: a person's (named by e-mail) or a service account's (by its name). */
const ACCOUNT_TARGETS = new Set(['user', 'service_account']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The name an entry's own record of its target carries (an account deleted since: its e-mail before the change). */
function recordedName(entry: AuditEntryEntity): string | null {
  for (const side of [entry.before, entry.after]) {
    if (side && typeof side === 'object') {
      const { email, name } = side as { email?: unknown; name?: unknown };
      if (typeof email === 'string') return email;
      if (typeof name === 'string') return name;
    }
  }
  return null;
}

@Controller('audit')
export class AuditController {
  constructor(private readonly dataSource: DataSource) {}

  /** The audit trail, newest first, filterable by actor e-mail, action and time range; accounts named, not only numbered. */
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
    return { entries: await this.named(entries), total, page: query.page, pageSize: query.pageSize };
  }

  /** The entries with their account targets' names: the account as it is now, else as the entry recorded it. */
  private async named(entries: AuditEntryEntity[]): Promise<(AuditEntryEntity & Pick<AuditEntryView, 'targetName'>)[]> {
    const ids = [
      ...new Set(
        entries
          .filter((entry) => ACCOUNT_TARGETS.has(entry.targetType ?? '') && UUID.test(entry.targetId ?? ''))
          .map((entry) => entry.targetId!),
      ),
    ];
    const accounts = ids.length
      ? await this.dataSource
          .getRepository(UserEntity)
          .find({ where: { id: In(ids) }, select: { id: true, email: true, firstName: true, kind: true } })
      : [];
    const names = new Map(
      accounts.map((account) => [account.id, account.kind === 'person' ? account.email : (account.firstName ?? account.email)]),
    );
    return entries.map((entry) => {
      if (!ACCOUNT_TARGETS.has(entry.targetType ?? '')) return entry;
      return { ...entry, targetName: names.get(entry.targetId ?? '') ?? recordedName(entry) };
    });
  }
}
