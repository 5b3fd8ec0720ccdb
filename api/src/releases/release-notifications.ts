import { Injectable } from '@nestjs/common';
import type { ReleaseEventData } from '@cbh/contracts';
import { HubEvents } from '../platform';

/** Raises the release events (notification rules, channels and deliveries do the rest). */
@Injectable()
export class ReleaseNotifications {
  constructor(private readonly events: HubEvents) {}

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
    await this.events.raise({
      type: 'release.canary_failing',
      subject: { kind: 'remote', id: canary.versionId, name: remote },
      data,
      dedupeKey: `canary_failing:${canary.versionId}:${canary.startedAt?.getTime() ?? 0}`,
    });
  }

  /** release.rolled_back: a canary rolled back by itself, once (the caller won the claim that ended it); `slo` when one judged it. */
  async rolledBack(
    remote: string,
    versionId: number,
    liveVersionId: number | null,
    reason: string,
    slo?: { id: number; name: string },
  ): Promise<void> {
    const data: Omit<ReleaseEventData, 'url'> = { remote, versionId, liveVersionId, reason, ...(slo ? { slo } : {}) };
    await this.events.raise({ type: 'release.rolled_back', subject: { kind: 'remote', id: versionId, name: remote }, data });
  }
}
