import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AppRequest } from '../auth/session-user';
import { AuditEntryEntity } from './entities/audit-entry.entity';

export interface AuditEvent {
  action: string;
  targetType?: string;
  targetId?: string | null;
  before?: object;
  after?: object;
  /** The acting account when it is not the request's (sign-in, accepting an invitation). */
  actor?: { id: string; email: string } | null;
}

/** Writes the audit trail: every mutation records who did what to what, before and after. */
@Injectable()
export class AuditService {
  constructor(private readonly dataSource: DataSource) {}

  /** Pass the transaction's manager so the entry commits (or rolls back) with the change it records. */
  /** `request` null: a change the API makes by itself (at start), with no request and, unless named, no actor. */
  async record(request: AppRequest | null, event: AuditEvent, manager: EntityManager = this.dataSource.manager) {
    await this.recordMany(request, [event], manager);
  }

  /** One entry per event in one statement: a change to many items at once (a bulk action, an import) is audited item by item. */
  async recordMany(request: AppRequest | null, events: readonly AuditEvent[], manager: EntityManager = this.dataSource.manager) {
    if (events.length === 0) return;
    // a change made with a personal access token says which one (its id, name and shown prefix)
    const via = request?.apiToken ? { tokenId: request.apiToken.id, name: request.apiToken.name, prefix: request.apiToken.prefix } : null;
    const requestId = typeof request?.id === 'string' ? request.id : null;
    await manager.getRepository(AuditEntryEntity).insert(
      events.map((event) => {
        const actor = event.actor !== undefined ? event.actor : (request?.user ?? null);
        return {
          actorId: actor?.id ?? null,
          actorEmail: actor?.email ?? null,
          action: event.action,
          targetType: event.targetType ?? null,
          targetId: event.targetId ?? null,
          before: event.before ?? null,
          after: event.after ?? null,
          requestId,
          via,
        };
      }),
    );
  }
}
