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
import { DataSource, In, type EntityManager } from 'typeorm';
import {
  publicName,
  RELEASE_LIMITS,
  REMOTE_NAMES,
  type ProvidedShared,
  type ReleaseCheckView,
  type ReleaseView,
  type RemoteVersionView,
  type UploadRelease,
} from '@cbh/contracts';
import { AuditService } from '../audit/audit.service';
import type { AppRequest } from '../auth/session-user';
import { RealtimeBus } from '../bus/realtime-bus.service';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { UserEntity } from '../users/entities/user.entity';
import { RemoteReleaseEntity } from './entities/remote-release.entity';
import { RemoteVersionEntity } from './entities/remote-version.entity';
import { decodeBuild, type DecodedBuild } from './release-build';
import { ReleaseFileStore } from './release-file-store';
import { ReleaseFilesRepository } from './release-files.repository';
import { ReleaseState } from './release-state.service';
import { ReleaseVersionsRepository } from './release-versions.repository';
import { RemoteLoadsRepository } from './remote-loads.repository';
import { PeriodicWork } from '../common/periodic-work';
import type { Repeating } from '../common/repeating';

/** Remote loads are kept this long: the release screen's figures are about recent releases. */
const LOADS_KEPT_MS = 30 * 24 * 3_600_000;
/**
 * Remote releases: builds uploaded as immutable versions (files content-addressed in PostgreSQL), checked against the
 * shell's contract before they are kept, and made live or rolled back. Every replica keeps which version of each
 * remote is live, read at start and again whenever any replica changes it (releases-changed over LISTEN/NOTIFY), and
 * serves a live version's files from the store through a per-replica cache of immutable bytes.
 */
@Injectable()
export class ReleasesService implements OnModuleInit, OnModuleDestroy, OnApplicationBootstrap {
  private readonly logger = new Logger(ReleasesService.name);
  /** Each remote's live version and canary, for the remotes with either. */
  private state = new Map<string, { live: number | null; canary: number | null; percent: number }>();
  private readonly pins: SecretBox;
  /** Each live version's files, path → SHA-256. */
  private readonly versionFiles = new Map<number, Record<string, string>>();
  private readonly cache = new Map<string, Buffer>();
  private cachedBytes = 0;
  private pruning?: Repeating;

  constructor(
    private readonly work: PeriodicWork,
    private readonly dataSource: DataSource,
    private readonly files: ReleaseFilesRepository,
    private readonly audit: AuditService,
    private readonly bus: RealtimeBus,
    private readonly loads: RemoteLoadsRepository,
    private readonly notifications: ReleaseNotifications,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.pins = new SecretBox(config.SESSION_SECRET, 'release-pins');
  }

  onModuleInit() {
    this.bus.subscribeInternal('releases-changed', () => void this.reload());
    this.bus.onReconnect(() => void this.reload());
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

  async onApplicationBootstrap() {
    await this.reload();
  }

  /** Which version of each remote is live, as the database has it now. */
  async reload(): Promise<void> {
    try {
      const rows = await this.dataSource.getRepository(RemoteReleaseEntity).find();
      const state = new Map(
        rows.map((row) => [row.remote, { live: row.liveVersionId, canary: row.canaryVersionId, percent: row.canaryPercent }] as const),
      );
      const missing = rows
        .flatMap((row) => [row.liveVersionId, row.canaryVersionId])
        .filter((id): id is number => id !== null && !this.versionFiles.has(id));
      if (missing.length > 0) {
        const versions = await this.dataSource
          .getRepository(RemoteVersionEntity)
          .find({ where: { id: In(missing) }, select: { id: true, files: true } });
        for (const version of versions) this.versionFiles.set(version.id, version.files);
      }
      this.state = state;
    } catch (error) {
      this.logger.warn(`live releases not read: ${(error as Error).message}`);
    }
  }

  /**
   * The entry /remotes.json gives one visitor for a remote: a version they pinned, else the canary when their bucket
   * falls in its share, else the live version; null for the deployed folder's. A visitor's bucket comes from their
   * visitor id and the remote, so it never changes: a person stays on one side of a canary across navigations, and
   * raising its share only moves people onto it.
   */
  entryFor(remote: string, visitor: string | null, pins: Record<string, number>): string | null {
    const at = (versionId: number) => `${releaseFilesPath(remote, versionId)}${REMOTE_MANIFEST}`;
    if (pins[remote] !== undefined) return at(pins[remote]);
    const state = this.state.get(remote);
    if (!state) return null;
    if (state.canary !== null && visitor !== null && bucketOf(visitor, remote) < state.percent) return at(state.canary);
    return state.live === null ? null : at(state.live);
  }

  /** The versions a sealed pins cookie names; none for a cookie the hub did not seal. */
  pinsOf(cookie: string | undefined): Record<string, number> {
    if (!cookie) return {};
    try {
      const opened = this.pins.open(decodeURIComponent(cookie));
      const pins = opened ? (JSON.parse(opened) as Record<string, unknown>) : {};
      return Object.fromEntries(Object.entries(pins).filter((entry): entry is [string, number] => Number.isInteger(entry[1])));
    } catch {
      return {};
    }
  }

  /** The pins cookie with one remote's pin set (or ended with null), after checking the version is that remote's. */
  async pin(req: AppRequest, remote: string, versionId: number | null, current: string | undefined): Promise<string> {
    this.knownRemote(remote);
    if (versionId !== null && !(await this.dataSource.getRepository(RemoteVersionEntity).existsBy({ id: versionId, remote }))) {
      throw new NotFoundException(`No version ${versionId} of ${remote}`);
    }
    const pins = this.pinsOf(current);
    if (versionId === null) delete pins[remote];
    else pins[remote] = versionId;
    await this.audit.record(req, { action: 'release.pin', targetType: 'remote', targetId: remote, after: { versionId } });
    return this.pins.seal(JSON.stringify(pins));
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

  /** The build decoded, bounded and checked against the shell's contract. */
  private decode(remote: string, body: UploadRelease): DecodedBuild {
    this.knownRemote(remote);
    const files = body.files.map(({ path: filePath, content }) => {
      const bytes = Buffer.from(content, 'base64');
      return { path: filePath, content: bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
    });
    const total = files.reduce((sum, file) => sum + file.content.length, 0);
    if (total > RELEASE_LIMITS.bytes)
      throw new BadRequestException(`files: the build is ${total} bytes, more than ${RELEASE_LIMITS.bytes}`);
    if (new Set(files.map((file) => file.path)).size !== files.length) throw new BadRequestException('files: a path is given twice');
    const byPath = new Map(files.map((file) => [file.path, file.content]));
    const build = readRemoteBuild(remote, byPath, (bytes) => gzipSync(bytes, { level: 9 }).length);
    const provided = this.provided();
    const problems: ContractProblem[] = provided
      ? remoteContractProblems(build, provided)
      : [{ rule: 'shared', message: "the shell's shared-versions.json is not deployed beside it: build and deploy the shell first" }];
    return { files, problems, entryGzipBytes: build.remoteEntryGzipBytes ?? 0 };
  }

  check(remote: string, body: UploadRelease): ReleaseCheckView {
    return { remote, problems: this.decode(remote, body).problems };
  }

  /** Keeps a build as a new version, refused (422, each rule broken and how to fix it) when it fails the check. */
  async upload(req: AppRequest, remote: string, body: UploadRelease): Promise<RemoteVersionView> {
    const build = this.decode(remote, body);
    if (build.problems.length > 0) {
      throw new UnprocessableEntityException(
        `The build of ${remote} breaks the shell's contract: ${build.problems.map((problem) => `${problem.rule}: ${problem.message}`).join('; ')}`,
      );
    }
    const version = await this.dataSource.transaction(async (manager) => {
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
    return (await this.views([version]))[0]!;
  }

  /** Every remote's release: its live and previous versions and its newest versions. */
  async list(): Promise<ReleaseView[]> {
    const releases = new Map((await this.dataSource.getRepository(RemoteReleaseEntity).find()).map((row) => [row.remote, row]));
    return Promise.all(
      REMOTE_NAMES.map(async (remote) => {
        const versions = await this.dataSource
          .getRepository(RemoteVersionEntity)
          .find({ where: { remote }, order: { id: 'DESC' }, take: RELEASE_LIMITS.listed });
        const release = releases.get(remote);
        return {
          remote,
          liveVersionId: release?.liveVersionId ?? null,
          previousVersionId: release?.previousVersionId ?? null,
          canary:
            release?.canaryVersionId && release.canaryStartedAt
              ? { versionId: release.canaryVersionId, percent: release.canaryPercent, startedAt: release.canaryStartedAt.toISOString() }
              : null,
          updatedAt: release?.updatedAt.toISOString() ?? null,
          versions: await this.views(versions),
        };
      }),
    );
  }

  /** Makes a version live; the one live before becomes what Rollback goes back to. */
  async promote(req: AppRequest, remote: string, versionId: number): Promise<ReleaseView> {
    this.knownRemote(remote);
    await this.dataSource.transaction(async (manager) => {
      const version = await manager.findOneBy(RemoteVersionEntity, { id: versionId, remote });
      if (!version) throw new NotFoundException(`No version ${versionId} of ${remote}`);
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
    this.knownRemote(remote);
    await this.dataSource.transaction(async (manager) => {
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

  /** Gives a version to `percent` % of visitors while the others keep the live one; a new canary replaces one running. */
  async canary(req: AppRequest, remote: string, versionId: number, percent: number): Promise<ReleaseView> {
    this.knownRemote(remote);
    await this.dataSource.transaction(async (manager) => {
      const version = await manager.findOneBy(RemoteVersionEntity, { id: versionId, remote });
      if (!version) throw new NotFoundException(`No version ${versionId} of ${remote}`);
      const release = await manager.findOne(RemoteReleaseEntity, { where: { remote }, lock: { mode: 'pessimistic_write' } });
      if (release?.liveVersionId === versionId) throw new BadRequestException(`Version ${versionId} of ${remote} is live already`);
      await manager.save(RemoteReleaseEntity, {
        remote,
        liveVersionId: release?.liveVersionId ?? null,
        previousVersionId: release?.previousVersionId ?? null,
        canaryVersionId: versionId,
        canaryPercent: percent,
        canaryStartedAt: release?.canaryVersionId === versionId ? release.canaryStartedAt : new Date(),
        updatedBy: req.user?.id ?? null,
      });
      await this.audit.record(
        req,
        {
          action: 'release.canary',
          targetType: 'remote',
          targetId: remote,
          before: { canary: release?.canaryVersionId ?? null },
          after: { canary: versionId, percent },
        },
        manager,
      );
    });
    return this.announce(remote);
  }

  /** Ends the canary: everyone gets the live version again. */
  async abortCanary(req: AppRequest, remote: string): Promise<ReleaseView> {
    this.knownRemote(remote);
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

  /**
   * Keeps the loads a page reports, each under the version its entry names, and rolls back a canary that fails for
   * too many of the people who load it (CANARY_ROLLBACK_PERCENT of at least CANARY_ROLLBACK_VISITORS): a breaker on
   * the remote itself, raising release.rolled_back. People are counted, not loads, so that nobody rolls a canary back
   * by reporting failures over and over.
   */
  async recordLoads(visitor: string, loads: readonly RemoteLoad[]): Promise<void> {
    const rows = loads.map((load) => {
      const match = /^\/releases\/([a-z0-9_]+)\/(\d+)\//.exec(load.entry);
      return {
        remote: load.remote,
        versionId: match && match[1] === load.remote ? Number(match[2]) : null,
        ok: load.ok,
        reason: load.reason ?? null,
        loadMs: load.loadMs ?? null,
        visitor,
      };
    });
    await this.loads.insert(rows);
    const canaries = new Set(
      rows.filter((row) => !row.ok && row.versionId !== null && this.state.get(row.remote)?.canary === row.versionId),
    );
    for (const row of canaries) await this.judgeCanary(row.remote, row.versionId!);
  }

  private async judgeCanary(remote: string, versionId: number): Promise<void> {
    const release = await this.dataSource.getRepository(RemoteReleaseEntity).findOneBy({ remote });
    if (release?.canaryVersionId !== versionId) return;
    const people = await this.loads.visitors(versionId, release.canaryStartedAt ?? new Date(0));
    const { CANARY_ROLLBACK_PERCENT: limit, CANARY_ROLLBACK_VISITORS: minimum } = this.config;
    if (people.count < minimum) return;
    const failurePercent = (100 * people.failed) / people.count;
    if (failurePercent < limit) return;
    if (!(await this.loads.endCanary(remote, versionId))) return;
    const reason = `it failed to load for ${people.failed} of the ${people.count} people who loaded it (${failurePercent.toFixed(1)} %; the limit is ${limit} % of at least ${minimum})`;
    await this.audit.record(null, {
      action: 'release.rolled_back',
      targetType: 'remote',
      targetId: remote,
      before: { canary: versionId },
      after: { canary: null, reason },
    });
    await this.notifications.rolledBack(remote, versionId, release.liveVersionId, reason);
    this.logger.warn(`canary ${versionId} of ${remote} rolled back: ${reason}`);
    await this.announce(remote);
  }

  /** Tells every replica (this one included, over the database) and answers the remote's release as it now is. */
  private async announce(remote: string): Promise<ReleaseView> {
    await this.reload();
    await this.bus.publishInternal('releases-changed', { remote });
    return (await this.list()).find((release) => release.remote === remote)!;
  }

  /**
   * A file of a live (or once live) version: the precompressed copy the client accepts when the build has one.
   * Versions never change, so the bytes are cached in this replica by their hash.
   */
  async file(
    remote: string,
    versionId: number,
    filePath: string,
    acceptEncoding: string,
  ): Promise<{ content: Buffer; encoding: 'br' | 'gzip' | null } | null> {
    let files = this.versionFiles.get(versionId);
    if (!files) {
      const version = await this.dataSource
        .getRepository(RemoteVersionEntity)
        .findOne({ where: { id: versionId, remote }, select: { id: true, files: true } });
      if (!version) return null;
      this.versionFiles.set(versionId, (files = version.files));
    }
    const accepts = (coding: string) => new RegExp(`(^|[,\\s])${coding}(;q=(?!0(\\.0*)?\\b)[\\d.]+)?($|[,\\s;])`).test(acceptEncoding);
    const choices: [string, 'br' | 'gzip' | null][] = [
      ...(accepts('br') ? ([[`${filePath}.br`, 'br']] as [string, 'br'][]) : []),
      ...(accepts('gzip') ? ([[`${filePath}.gz`, 'gzip']] as [string, 'gzip'][]) : []),
      [filePath, null],
    ];
    for (const [candidate, encoding] of choices) {
      const sha = files[candidate];
      if (!sha) continue;
      const content = await this.bytes(sha);
      if (content) return { content, encoding };
    }
    return null;
  }

  private async bytes(sha256: string): Promise<Buffer | null> {
    const hit = this.cache.get(sha256);
    if (hit) {
      // most recently used last, so the oldest go first
      this.cache.delete(sha256);
      this.cache.set(sha256, hit);
      return hit;
    }
    const content = await this.files.read(sha256);
    if (!content) return null;
    this.cache.set(sha256, content);
    this.cachedBytes += content.length;
    for (const [key, value] of this.cache) {
      if (this.cachedBytes <= CACHE_BYTES) break;
      this.cache.delete(key);
      this.cachedBytes -= value.length;
    }
    return content;
  }

  private async views(versions: RemoteVersionEntity[]): Promise<RemoteVersionView[]> {
    const figures = await this.loads.figures(versions.map((version) => version.id));
    const ids = [...new Set(versions.flatMap((version) => version.uploadedBy ?? []))];
    const users = new Map(
      (ids.length > 0 ? await this.dataSource.getRepository(UserEntity).findBy({ id: In(ids) }) : []).map((user) => [user.id, user]),
    );
    return versions.map((version) => {
      const user = version.uploadedBy ? users.get(version.uploadedBy) : undefined;
      return {
        id: version.id,
        remote: version.remote,
        gitCommit: version.gitCommit,
        uploadedBy: user ? publicName(user) : null,
        uploadedAt: version.uploadedAt.toISOString(),
        files: Object.keys(version.files).length,
        bytes: version.bytes,
        entryGzipBytes: version.entryGzipBytes,
        loads: figures.get(version.id) ?? { count: 0, failed: 0, activeVisitors: 0, p50Ms: null, p95Ms: null },
      };
    });
  }
}
