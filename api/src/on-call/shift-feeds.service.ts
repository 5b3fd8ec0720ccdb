import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { UserEntity } from '../identity';
import { DataSource } from 'typeorm';
import ical from 'ical-generator';
import { APP_CONFIG, type AppConfig } from '../platform';
import { OnCallFeedEntity } from './entities/on-call-feed.entity';
import { ScheduleEntity } from './entities/schedule.entity';
import { shiftsBetween } from './on-call-at';

/** A feed shows a week back and eight weeks ahead. */
const PAST_DAYS = 7;
const AHEAD_DAYS = 56;
const DAY_MS = 86_400_000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Each person's shifts as an iCalendar feed at a secret address (`/api/public/on-call/<token>.ics`) that a calendar
 * application polls: one address per person, kept as its hash; making a new one revokes the old, and deleting it
 * revokes it. The feed holds that person's shifts in every schedule, and nothing of anyone else's.
 */
@Injectable()
export class ShiftFeedsService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A new secret address for the person (the old one stops working); the token is shown this once. */
  async renew(userId: string): Promise<{ url: string }> {
    const token = `ocf_${randomBytes(24).toString('base64url')}`;
    await this.dataSource.getRepository(OnCallFeedEntity).upsert({ userId, tokenHash: hashOf(token), createdAt: new Date() }, ['userId']);
    return { url: `${this.config.PUBLIC_URL}/api/public/on-call/${token}.ics` };
  }

  async revoke(userId: string): Promise<void> {
    await this.dataSource.getRepository(OnCallFeedEntity).delete({ userId });
  }

  /** The calendar of the person a token names, or null for a token that names nobody (revoked, or never made). */
  async calendar(token: string, now = new Date()): Promise<string | null> {
    const feed = await this.dataSource.getRepository(OnCallFeedEntity).findOneBy({ tokenHash: hashOf(token) });
    if (!feed) return null;
    // a deactivated account's address reads nothing
    if (!(await this.dataSource.getRepository(UserEntity).findOneBy({ id: feed.userId }))?.isActive) return null;
    const from = new Date(now.getTime() - PAST_DAYS * DAY_MS);
    const to = new Date(now.getTime() + AHEAD_DAYS * DAY_MS);
    const calendar = ical({ name: 'My on-call shifts', prodId: { company: 'Circuit Breaker Hub', product: 'on-call' } });
    for (const schedule of await this.dataSource.getRepository(ScheduleEntity).find({ order: { name: 'ASC' } })) {
      for (const shift of shiftsBetween(schedule, from, to)) {
        if (shift.user !== feed.userId) continue;
        calendar.createEvent({
          // stable per schedule and start, so a calendar updates a shift rather than adding it again
          id: `${schedule.id}-${shift.start.getTime()}@circuit-breaker-hub`,
          start: shift.start,
          end: shift.end,
          summary: `On call: ${schedule.name}`,
          stamp: now,
        });
      }
    }
    return calendar.toString();
  }
}
