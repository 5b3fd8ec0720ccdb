import { ForbiddenException, HttpException, HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isServiceAccountEmail, RELEASE_LIMITS, type RemoteLoad } from '@cbh/contracts';
import { type AppRequest, AuditService } from '../identity';
import { APP_CONFIG, type AppConfig } from '../platform';
import { RemoteReleaseEntity } from './entities/remote-release.entity';
import { CanaryJudges } from './canary-judges';
import { ReleaseNotifications } from './release-notifications';
import { ReleaseState, sideOf } from './release-state.service';
import { RemoteLoadsRepository } from './remote-loads.repository';

/**
 * Failing people a canary is rolled back for at the least, whatever the share: one person alone, whose failure may be
 * their own browser's or made up, only ever raises release.canary_failing.
 */
export const ROLLBACK_MIN_FAILING_PEOPLE = 2;

/** The version an entry names (/releases/<remote>/<id>/…), null for the deployed folder's, undefined for neither. */
function versionIn(entry: string, remote: string): number | null | undefined {
  const match = /^\/releases\/([a-z0-9_]+)\/(\d+)\//.exec(entry);
  if (match) return match[1] === remote ? Number(match[2]) : undefined;
  return entry.startsWith('/remotes/') ? null : undefined;
}

/**
 * The loads pages report, and the automatic rollback they drive. A load counts only when a person reports it (never
 * a token or a service account), within a rate per account, and only for the version the hub gives that person —
 * their account's side of each canary and their own sealed pins say which — so nobody can report a version they
 * were not served, nor re-roll their side until they land on a canary to fail.
 */
@Injectable()
export class ReleaseLoadsService {
  private readonly logger = new Logger(ReleaseLoadsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly state: ReleaseState,
    private readonly loads: RemoteLoadsRepository,
    private readonly notifications: ReleaseNotifications,
    private readonly audit: AuditService,
    private readonly judges: CanaryJudges,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Keeps a page's loads that name the version the visitor was given, and judges each canary one of them saw fail.
   * `announce` tells every replica of a rollback.
   */
  async record(
    req: AppRequest,
    pinsCookie: string | undefined,
    loads: readonly RemoteLoad[],
    announce: (remote: string) => Promise<unknown>,
  ): Promise<void> {
    const user = req.user!;
    if (req.apiToken || isServiceAccountEmail(user.email)) {
      throw new ForbiddenException('Remote loads are counted for people only: report them from a signed-in browser, not with a token');
    }
    const { reports, secondsLeft } = await this.loads.countReport(user.id);
    if (reports > RELEASE_LIMITS.loadReportsPerMinute) {
      throw new HttpException(
        `This account sent ${RELEASE_LIMITS.loadReportsPerMinute} load reports this minute, the most one account may; try again in ${secondsLeft} s`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    // a person's side is their account's, as /remotes.json gave it to them: a new visitor cookie re-rolls nothing
    const side = sideOf(user, null);
    const pins = this.state.pinsOf(pinsCookie, user);
    const rows = loads.flatMap((load) => {
      const versionId = versionIn(load.entry, load.remote);
      // a load of anything but what this visitor is given now is not counted
      if (versionId === undefined || versionId !== this.state.assigned(load.remote, side, pins)) return [];
      const afterRender = load.afterRender === true;
      return [
        {
          remote: load.remote,
          versionId,
          // an error after render is bad whatever the page said
          ok: load.ok && !afterRender,
          reason: load.reason ?? null,
          loadMs: afterRender ? null : (load.loadMs ?? null),
          visitor: user.id,
          afterRender,
        },
      ];
    });
    await this.loads.insert(rows);
    const onCanary = rows.filter((row) => row.versionId !== null && this.state.canaryOf(row.remote)?.versionId === row.versionId);
    const failing = new Map(onCanary.filter((row) => !row.ok && !row.afterRender).map((row) => [row.remote, row.versionId!]));
    for (const [remote, versionId] of failing) await this.judgeCanary(remote, versionId, announce);
    // any load of a canary may tip its SLOs' verdict: a good one may bring it to its minimum of loads
    for (const [remote, versionId] of new Map(onCanary.map((row) => [row.remote, row.versionId!]))) {
      await this.judgeBySlos(remote, versionId, announce);
    }
  }

  /**
   * Rolls back a canary one of its SLOs judges too costly (CanaryJudges: a named SLO burning its budget more than
   * CANARY_SLO_BURN_FACTOR times as fast among its visitors as among the live version's), raising release.rolled_back
   * that names the SLO.
   */
  private async judgeBySlos(remote: string, versionId: number, announce: (remote: string) => Promise<unknown>): Promise<void> {
    const release = await this.dataSource.getRepository(RemoteReleaseEntity).findOneBy({ remote });
    if (release?.canaryVersionId !== versionId || !release.canaryStartedAt || release.canarySloIds.length === 0) return;
    const verdict = await this.judges.verdict({
      remote,
      versionId,
      liveVersionId: release.liveVersionId,
      startedAt: release.canaryStartedAt,
      sloIds: release.canarySloIds,
    });
    if (verdict) await this.rollBack(remote, versionId, release.liveVersionId, verdict.reason, announce, verdict.slo);
  }

  /**
   * Rolls back a canary that fails for CANARY_ROLLBACK_PERCENT of at least CANARY_ROLLBACK_VISITORS of the people who
   * loaded it, and for ROLLBACK_MIN_FAILING_PEOPLE of them at least — a breaker on the remote itself, raising
   * release.rolled_back. Failing as badly for fewer people, or for one alone, it raises release.canary_failing
   * instead (once per canary): a handful of accounts cannot roll a release back. People are counted, not loads, each
   * by their latest load, so that nobody rolls a canary back by reporting failures over and over.
   */
  private async judgeCanary(remote: string, versionId: number, announce: (remote: string) => Promise<unknown>): Promise<void> {
    const release = await this.dataSource.getRepository(RemoteReleaseEntity).findOneBy({ remote });
    if (release?.canaryVersionId !== versionId) return;
    const people = await this.loads.visitors(versionId, release.canaryStartedAt ?? new Date(0));
    const { CANARY_ROLLBACK_PERCENT: limit, CANARY_ROLLBACK_VISITORS: minimum } = this.config;
    const failurePercent = (100 * people.failed) / people.count;
    if (people.count === 0 || failurePercent < limit) return;
    const reason = `it failed to load for ${people.failed} of the ${people.count} people who loaded it (${failurePercent.toFixed(1)} %; the limit is ${limit} % of at least ${minimum}, ${ROLLBACK_MIN_FAILING_PEOPLE} of them failing)`;
    if (people.count < minimum || people.failed < ROLLBACK_MIN_FAILING_PEOPLE) {
      await this.notifications.canaryFailing(remote, { versionId, startedAt: release.canaryStartedAt }, release.liveVersionId, reason);
      return;
    }
    await this.rollBack(remote, versionId, release.liveVersionId, reason, announce);
  }

  /** Ends the canary, once across replicas (the one whose claim ends it goes on), audited and told. */
  private async rollBack(
    remote: string,
    versionId: number,
    liveVersionId: number | null,
    reason: string,
    announce: (remote: string) => Promise<unknown>,
    slo?: { id: number; name: string },
  ): Promise<void> {
    if (!(await this.loads.endCanary(remote, versionId))) return;
    await this.audit.record(null, {
      action: 'release.rolled_back',
      targetType: 'remote',
      targetId: remote,
      before: { canary: versionId },
      after: { canary: null, reason, ...(slo ? { slo } : {}) },
    });
    await this.notifications.rolledBack(remote, versionId, liveVersionId, reason, slo);
    this.logger.warn(`canary ${versionId} of ${remote} rolled back: ${reason}`);
    await announce(remote);
  }
}
