import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable, RealtimeBus, STALE_WHILE_UNAVAILABLE_MS } from '../../platform';
import { toUserView, UserEntity } from '../users/entities/user.entity';
import type { SessionUser } from './session-user';

const TTL_MS = 10_000;

/**
 * Signed-in accounts by id, kept in memory so authenticated requests read no database row. Changes made
 * through this process evict at once, other replicas evict when the change's userChanged message reaches
 * them; the TTL bounds how long a copy may be stale if that message is lost.
 */
@Injectable()
export class UserDirectory implements OnModuleInit {
  private readonly cache = new Map<string, { user: SessionUser | null; until: number }>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: RealtimeBus,
  ) {}

  onModuleInit() {
    this.bus.subscribe(({ message }) => {
      if (message.type === 'userChanged') this.evict(message.data.userId);
    });
  }

  /** The cached account (null: no such account), if read in the last few seconds; undefined otherwise. */
  cached(id: string): SessionUser | null | undefined {
    const hit = this.cache.get(id);
    return hit && hit.until > Date.now() ? hit.user : undefined;
  }

  async get(id: string): Promise<SessionUser | null> {
    const hit = this.cache.get(id);
    if (hit && hit.until > Date.now()) return hit.user;
    let row: UserEntity | null;
    try {
      row = await this.dataSource.getRepository(UserEntity).findOneBy({ id });
    } catch (error) {
      // the database is away: an account confirmed lately still reads (see STALE_WHILE_UNAVAILABLE_MS)
      if (hit && hit.until + STALE_WHILE_UNAVAILABLE_MS > Date.now() && isDatabaseUnavailable(error)) return hit.user;
      throw error;
    }
    const user = row ? toUserView(row) : null;
    this.cache.set(id, { user, until: Date.now() + TTL_MS });
    return user;
  }

  evict(id: string) {
    this.cache.delete(id);
  }
}
