import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ReleaseEventData } from '@cbh/contracts';

/** Raises the release events of the notification outbox (its rules, channels and deliveries do the rest). */
@Injectable()
export class ReleaseNotifications {
  constructor(private readonly dataSource: DataSource) {}

  /** release.rolled_back: a canary rolled back by itself, once (the caller won the claim that ended it). */
  async rolledBack(remote: string, versionId: number, liveVersionId: number | null, reason: string): Promise<void> {
    const data: Omit<ReleaseEventData, 'url'> = { remote, versionId, liveVersionId, reason };
    await this.dataSource.query(
      `INSERT INTO notification_events (type, subject_kind, subject_id, subject_name, occurred_at, data)
       VALUES ('release.rolled_back', 'remote', $1, $2, now(), $3::jsonb)`,
      [versionId, remote, JSON.stringify(data)],
    );
  }
}
