import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  type OnModuleDestroy,
  type OnModuleInit,
  UnprocessableEntityException,
} from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  REMOTE_NAMES,
  type ProvidedShared,
  type ReleaseCheckView,
  type ReleaseView,
  type RemoteVersionView,
  type UploadRelease,
} from '@cbh/contracts';
import { type AppRequest, AuditService } from '../identity';
import { APP_CONFIG, type AppConfig, PeriodicWork, RealtimeBus, type Repeating } from '../platform';
import { RemoteReleaseEntity } from './entities/remote-release.entity';
import { RemoteVersionEntity } from './entities/remote-version.entity';
import { decodeBuild, type DecodedBuild } from './release-build';
import { ReleaseFileStore } from './release-file-store';
import { ReleaseFilesRepository } from './release-files.repository';
import { ReleaseState } from './release-state.service';
import { ReleaseVersionsRepository } from './release-versions.repository';
import { RemoteLoadsRepository } from './remote-loads.repository';
import { ReleaseViews } from './release-views';
import { CanaryJudges } from './canary-judges';

/** Remote loads are kept this long: the release screen's figures are about recent releases. */
const LOADS_KEPT_MS = 30 * 24 * 3_600_000;

/**
 * Remote releases: builds uploaded as immutable versions (files content-addressed in PostgreSQL), checked before they
 * are kept, made live, given to a share of visitors, rolled back, deleted, and pruned to RELEASE_VERSIONS_KEPT per
 * remote. Releasing ships code to every visitor's browser on the hub's origin, so a token or service account may be
 * limited to the remotes it may release. What every replica knows of the releases is ReleaseState's; the files are
 * served by ReleaseFileStore.
 */
@Injectable()
export class ReleasesService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ReleasesService.name);
  private pruning?: Repeating;

  constructor(
    private readonly work: PeriodicWork,
    private readonly dataSource: DataSource,
    private readonly files: ReleaseFilesRepository,
    private readonly versions: ReleaseVersionsRepository,
    private readonly audit: AuditService,
    private readonly bus: RealtimeBus,
    private readonly loads: RemoteLoadsRepository,
    readonly state: ReleaseState,
    readonly store: ReleaseFileStore,
    readonly releaseViews: ReleaseViews,
    private readonly judges: CanaryJudges,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit() {
    // the load figures are about recent releases: older loads go (any replica may; deleting twice deletes nothing)
    this.pruning = this.work.every(
      3_600_000,
      () => this.loads.prune(new Date(Date.now() - LOADS_KEPT_MS)),
      (error) => this.logger.warn(`old remote loads not pruned: ${error.message}`),
    );
  }

  onModuleDestroy() {
    void this.pruning?.stop();
  }

  /**
   * Refuses a release operation on a remote the caller's token (or its service account) is not limited to: one team's
   * CI cannot ship another team's screen area. A person's session may release every remote.
   */
  async mayRelease(req: AppRequest, remote: string): Promise<void> {
    this.knownRemote(remote);
    if (!req.apiToken) return;
    const allowed = await this.versions.releasableWith(req.apiToken.id);
    if (allowed && !allowed.includes(remote)) {
      const only = allowed.length ? `only ${allowed.join(', ')}` : 'no remote';
      throw new ForbiddenException(`This access token may release ${only}, not ${remote}`);
    }
  }

  /** The remote's version, its release changes locked until the transaction ends (lockRemote); 404 when it has none of that id. */
  private async lockedVersion(manager: EntityManager, remote: string, versionId: number): Promise<RemoteVersionEntity> {
    await this.versions.lockRemote(manager, remote);
    const version = await manager.findOneBy(RemoteVersionEntity, { id: versionId, remote });
    if (!version) throw new NotFoundException(`No version ${versionId} of ${remote}`);
    return version;
  }

  /** The pins cookie with one remote's pin set (or ended with null), after checking the version is that remote's. */
  async pin(req: AppRequest, remote: string, versionId: number | null, current: string | undefined): Promise<string> {
    await this.mayRelease(req, remote);
    if (versionId !== null && !(await this.dataSource.getRepository(RemoteVersionEntity).existsBy({ id: versionId, remote }))) {
      throw new NotFoundException(`No version ${versionId} of ${remote}`);
    }
    const pins = this.state.pinsOf(current, req.user);
    if (versionId === null) delete pins[remote];
    else pins[remote] = versionId;
    await this.audit.record(req, { action: 'release.pin', targetType: 'remote', targetId: remote, after: { versionId } });
    return this.state.sealPins(pins, req.user!.id);
  }

  /** The shared packages the shell provides, as its build wrote them beside its files. */
  private provided(): ProvidedShared | null {
    try {
      return JSON.parse(
        readFileSync(path.join(path.resolve(this.config.STATIC_ROOT), 'shell', 'shared-versions.json'), 'utf8'),
      ) as ProvidedShared;
    } catch {
      return null;
    }
  }

  private knownRemote(remote: string) {
    if (!(REMOTE_NAMES as readonly string[]).includes(remote)) {
      throw new NotFoundException(`No remote named ${remote}: the remotes are ${REMOTE_NAMES.join(', ')}`);
    }
  }

  /** The build decoded, bounded and checked (file types, compressed copies, the shell's contract). */
  private decode(remote: string, body: UploadRelease): DecodedBuild {
    this.knownRemote(remote);
    return decodeBuild(remote, body, this.provided());
  }

  async check(req: AppRequest, remote: string, body: UploadRelease): Promise<ReleaseCheckView> {
    await this.mayRelease(req, remote);
    return { remote, problems: this.decode(remote, body).problems };
  }

  /**
   * Keeps a build as a new version, refused (422, each rule broken and how to fix it) when it fails the check; then
   * the remote's oldest versions beyond RELEASE_VERSIONS_KEPT that nothing serves go, with the files only they held.
   */
  async upload(req: AppRequest, remote: string, body: UploadRelease): Promise<RemoteVersionView> {
    await this.mayRelease(req, remote);
    const build = this.decode(remote, body);
    if (build.problems.length > 0) {
      throw new UnprocessableEntityException(
        `The build of ${remote} breaks the shell's contract: ${build.problems.map((problem) => `${problem.rule}: ${problem.message}`).join('; ')}`,
      );
    }
    const version = await this.dataSource.transaction(async (manager) => {
      await this.versions.lockFiles(manager, 'upload');
      const unique = [...new Map(build.files.map((file) => [file.sha256, file])).values()];
      await this.files.store(manager, unique);
      const saved = await manager.save(
        manager.create(RemoteVersionEntity, {
          remote,
          gitCommit: body.gitCommit ?? null,
          uploadedBy: req.user?.id ?? null,
          files: Object.fromEntries(build.files.map((file) => [file.path, file.sha256])),
          bytes: build.files.reduce((sum, file) => sum + file.content.length, 0),
          entryGzipBytes: build.entryGzipBytes,
          report: { problems: [] },
        }),
      );
      await this.audit.record(
        req,
        {
          action: 'release.upload',
          targetType: 'remote',
          targetId: remote,
          after: { versionId: saved.id, gitCommit: saved.gitCommit, files: build.files.length, bytes: saved.bytes },
        },
        manager,
      );
      return saved;
    });
    await this.prune(remote).catch((error: Error) => this.logger.warn(`old versions of ${remote} not pruned: ${error.message}`));
    return (await this.releaseViews.versions([version]))[0]!;
  }

  /** Keeps RELEASE_VERSIONS_KEPT versions of a remote at most: the oldest nothing serves go, with files only they held. */
  private async prune(remote: string): Promise<void> {
    const pruned = await this.dataSource.transaction(async (manager) => {
      await this.versions.lockRemote(manager, remote);
      const ids = await this.versions.pruneVersions(manager, remote, this.config.RELEASE_VERSIONS_KEPT);
      if (ids.length > 0) await this.versions.pruneFiles(manager);
      return ids;
    });
    if (pruned.length > 0) {
      await this.audit.record(null, { action: 'release.prune', targetType: 'remote', targetId: remote, before: { versionIds: pruned } });
    }
  }

  /**
   * Deletes a version and the files only it held; never the live, previous or canary one (409 saying which): those are
   * served to visitors and what a rollback goes back to.
   */
  async deleteVersion(req: AppRequest, remote: string, versionId: number): Promise<void> {
    await this.mayRelease(req, remote);
    await this.dataSource.transaction(async (manager) => {
      const version = await this.lockedVersion(manager, remote, versionId);
      const release = await manager.findOneBy(RemoteReleaseEntity, { remote });
      const role =
        release?.liveVersionId === versionId
          ? 'the live version'
          : release?.previousVersionId === versionId
            ? 'the previous version, which Rollback goes back to'
            : release?.canaryVersionId === versionId
              ? 'the canary'
              : null;
      if (role) throw new ConflictException(`Version ${versionId} of ${remote} is ${role}: it cannot be deleted`);
      await manager.delete(RemoteVersionEntity, { id: versionId });
      await this.versions.pruneFiles(manager);
      await this.audit.record(
        req,
        { action: 'release.delete', targetType: 'remote', targetId: remote, before: { versionId, gitCommit: version.gitCommit } },
        manager,
      );
    });
    // every replica forgets the version's files (a browser that pinned it is served it no more)
    await this.announce(remote);
  }

  /** Makes a version live; the one live before becomes what Rollback goes back to. */
  async promote(req: AppRequest, remote: string, versionId: number): Promise<ReleaseView> {
    await this.mayRelease(req, remote);
    await this.dataSource.transaction(async (manager) => {
      await this.lockedVersion(manager, remote, versionId);
      const release = await manager.findOne(RemoteReleaseEntity, { where: { remote }, lock: { mode: 'pessimistic_write' } });
      const before = release?.liveVersionId ?? null;
      if (before === versionId && !release?.canaryVersionId) return;
      // a promote ends the canary: the canary's version promoted, or another chosen instead
      const previous = before === versionId ? (release?.previousVersionId ?? null) : before;
      await this.switchLive(manager, req, 'release.promote', remote, { live: versionId, previous, before });
    });
    return this.announce(remote);
  }

  /** Sets which version is live and which one a rollback goes back to, ending any canary; audited as `action`. */
  private async switchLive(
    manager: EntityManager,
    req: AppRequest,
    action: 'release.promote' | 'release.rollback',
    remote: string,
    { live, previous, before }: { live: number | null; previous: number | null; before: number | null },
  ) {
    await manager.save(RemoteReleaseEntity, {
      remote,
      liveVersionId: live,
      previousVersionId: previous,
      canaryVersionId: null,
      canaryPercent: 0,
      canarySloIds: [],
      canaryStartedAt: null,
      updatedBy: req.user?.id ?? null,
    });
    await this.audit.record(
      req,
      { action, targetType: 'remote', targetId: remote, before: { liveVersionId: before }, after: { liveVersionId: live } },
      manager,
    );
  }

  /** Goes back to the version live before the current one, in one action. */
  async rollback(req: AppRequest, remote: string): Promise<ReleaseView> {
    await this.mayRelease(req, remote);
    await this.dataSource.transaction(async (manager) => {
      await this.versions.lockRemote(manager, remote);
      const release = await manager.findOne(RemoteReleaseEntity, { where: { remote }, lock: { mode: 'pessimistic_write' } });
      if (!release?.liveVersionId) throw new BadRequestException(`${remote} has no live version to roll back`);
      // back to the deployed folder when no version was live before the first promote
      const back = release.previousVersionId;
      // everyone back on the version before, a canary running included
      await this.switchLive(manager, req, 'release.rollback', remote, {
        live: back,
        previous: release.liveVersionId,
        before: release.liveVersionId,
      });
    });
    return this.announce(remote);
  }

  /**
   * Gives a version to `percent` % of visitors while the others keep the live one, judged by `slos` when named; a new
   * canary replaces one running.
   */
  async canary(req: AppRequest, remote: string, versionId: number, percent: number, slos: readonly number[] = []): Promise<ReleaseView> {
    await this.mayRelease(req, remote);
    const judgedBy = await this.judges.named(remote, slos);
    await this.dataSource.transaction(async (manager) => {
      await this.lockedVersion(manager, remote, versionId);
      const release = await manager.findOne(RemoteReleaseEntity, { where: { remote }, lock: { mode: 'pessimistic_write' } });
      if (release?.liveVersionId === versionId) throw new BadRequestException(`Version ${versionId} of ${remote} is live already`);
      await manager.save(RemoteReleaseEntity, {
        remote,
        liveVersionId: release?.liveVersionId ?? null,
        previousVersionId: release?.previousVersionId ?? null,
        canaryVersionId: versionId,
        canaryPercent: percent,
        canaryStartedAt: release?.canaryVersionId === versionId ? release.canaryStartedAt : new Date(),
        canarySloIds: judgedBy.map((slo) => slo.id),
        updatedBy: req.user?.id ?? null,
      });
      await this.audit.record(
        req,
        {
          action: 'release.canary',
          targetType: 'remote',
          targetId: remote,
          before: { canary: release?.canaryVersionId ?? null },
          after: { canary: versionId, percent, slos: judgedBy },
        },
        manager,
      );
    });
    return this.announce(remote);
  }

  /** Ends the canary: everyone gets the live version again. */
  async abortCanary(req: AppRequest, remote: string): Promise<ReleaseView> {
    await this.mayRelease(req, remote);
    const release = await this.dataSource.getRepository(RemoteReleaseEntity).findOneBy({ remote });
    if (!release?.canaryVersionId || !(await this.loads.endCanary(remote, release.canaryVersionId))) {
      throw new BadRequestException(`${remote} has no canary running`);
    }
    await this.audit.record(req, {
      action: 'release.canary-abort',
      targetType: 'remote',
      targetId: remote,
      before: { canary: release.canaryVersionId },
    });
    return this.announce(remote);
  }

  /** Tells every replica (this one included, over the database) and answers the remote's release as it now is. */
  async announce(remote: string): Promise<ReleaseView> {
    await this.state.reload();
    await this.bus.publishInternal('releases-changed', { remote });
    return (await this.releaseViews.list()).find((release) => release.remote === remote)!;
  }
}
