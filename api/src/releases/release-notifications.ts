import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ReleaseEventData } from '@cbh/contracts';

/** Raises the release events of the notification outbox (its rules, channels and deliveries do the rest). */
@Injectable()
export class ReleaseNotifications {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * release.canary_failing: a canary failing for as many of the people who loaded it as would roll it back, but for
   * fewer people than the minimum sample; once per canary (its version and start), whichever replica judges it first.
   */
  async canaryFailing(
    remote: string,
    canary: { versionId: number; startedAt: Date | null },
    liveVersionId: number | null,
    reason: string,
  ): Promise<void> {
    const data: Omit<ReleaseEventData, 'url'> = { remote, versionId: canary.versionId, liveVersionId, reason };
    await this.dataSource.query(
      `INSERT INTO notification_events (type, subject_kind, subject_id, subject_name, occurred_at, data, dedupe_key)
       VALUES ('release.canary_failing', 'remote', $1, $2, now(), $3::jsonb, $4)
       ON CONFLICT (dedupe_key) DO NOTHING`,
      [canary.versionId, remote, JSON.stringify(data), `canary_failing:${canary.versionId}:${canary.startedAt?.getTime() ?? 0}`],
    );
  }

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
