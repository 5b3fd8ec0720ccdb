import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  BadRequestException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  type OnApplicationBootstrap,
  type OnModuleInit,
  UnprocessableEntityException,
} from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import {
  publicName,
  RELEASE_LIMITS,
  releaseFilesPath,
  REMOTE_NAMES,
  remoteContractProblems,
  type ContractProblem,
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
import { ReleaseFilesRepository } from './release-files.repository';

/** The manifest a remote's build is read from, as the federation plugin names it. */
const MANIFEST = 'mf-manifest.json';
/** Immutable files kept in each replica's memory at most (bytes): a version's files never change. */
const CACHE_BYTES = 64 * 1024 * 1024;

interface DecodedBuild {
  files: { path: string; content: Buffer; sha256: string }[];
  problems: ContractProblem[];
  entryGzipBytes: number;
}

/**
 * Remote releases: builds uploaded as immutable versions (files content-addressed in PostgreSQL), checked against the
 * shell's contract before they are kept, and made live or rolled back. Every replica keeps which version of each
 * remote is live, read at start and again whenever any replica changes it (releases-changed over LISTEN/NOTIFY), and
 * serves a live version's files from the store through a per-replica cache of immutable bytes.
 */
@Injectable()
export class ReleasesService implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(ReleasesService.name);
  /** The live version of each remote with one. */
  private live = new Map<string, number>();
  /** Each live version's files, path → SHA-256. */
  private readonly versionFiles = new Map<number, Record<string, string>>();
  private readonly cache = new Map<string, Buffer>();
  private cachedBytes = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly files: ReleaseFilesRepository,
    private readonly audit: AuditService,
    private readonly bus: RealtimeBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit() {
    this.bus.subscribeInternal('releases-changed', () => void this.reload());
    this.bus.onReconnect(() => void this.reload());
  }

  async onApplicationBootstrap() {
    await this.reload();
  }

  /** Which version of each remote is live, as the database has it now. */
  async reload(): Promise<void> {
    try {
      const rows = await this.dataSource.getRepository(RemoteReleaseEntity).find();
      const live = new Map(rows.flatMap((row) => (row.liveVersionId === null ? [] : [[row.remote, row.liveVersionId] as const])));
      const missing = [...live.values()].filter((id) => !this.versionFiles.has(id));
      if (missing.length > 0) {
        const versions = await this.dataSource
          .getRepository(RemoteVersionEntity)
          .find({ where: { id: In(missing) }, select: { id: true, files: true } });
        for (const version of versions) this.versionFiles.set(version.id, version.files);
      }
      this.live = live;
    } catch (error) {
      this.logger.warn(`live releases not read: ${(error as Error).message}`);
    }
  }

  /** The entry /remotes.json gives a remote: its live version's manifest, or null for the deployed folder's. */
  liveEntry(remote: string): string | null {
    const versionId = this.live.get(remote);
    return versionId === undefined ? null : `${releaseFilesPath(remote, versionId)}${MANIFEST}`;
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
    let manifest: unknown = null;
    try {
      manifest = JSON.parse(byPath.get(MANIFEST)?.toString('utf8') ?? 'null');
    } catch {
      manifest = null;
    }
    const entryName = (manifest as { metaData?: { remoteEntry?: { name?: unknown } } } | null)?.metaData?.remoteEntry?.name;
    const entry = typeof entryName === 'string' ? byPath.get(entryName) : undefined;
    const entryGzipBytes = entry ? gzipSync(entry, { level: 9 }).length : 0;
    const provided = this.provided();
    const problems: ContractProblem[] = provided
      ? remoteContractProblems(
          { remote, manifest, files: [...byPath.keys()], remoteEntryGzipBytes: entry ? entryGzipBytes : null },
          provided,
        )
      : [{ rule: 'shared', message: "the shell's shared-versions.json is not deployed beside it: build and deploy the shell first" }];
    return { files, problems, entryGzipBytes };
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
      if (before === versionId) return;
      await manager.save(RemoteReleaseEntity, {
        remote,
        liveVersionId: versionId,
        previousVersionId: before,
        updatedBy: req.user?.id ?? null,
      });
      await this.audit.record(
        req,
        {
          action: 'release.promote',
          targetType: 'remote',
          targetId: remote,
          before: { liveVersionId: before },
          after: { liveVersionId: versionId },
        },
        manager,
      );
    });
    return this.announce(remote);
  }

  /** Goes back to the version live before the current one, in one action. */
  async rollback(req: AppRequest, remote: string): Promise<ReleaseView> {
    this.knownRemote(remote);
    await this.dataSource.transaction(async (manager) => {
      const release = await manager.findOne(RemoteReleaseEntity, { where: { remote }, lock: { mode: 'pessimistic_write' } });
      if (!release?.liveVersionId) throw new BadRequestException(`${remote} has no live version to roll back`);
      // back to the deployed folder when no version was live before the first promote
      const back = release.previousVersionId;
      await manager.save(RemoteReleaseEntity, {
        remote,
        liveVersionId: back,
        previousVersionId: release.liveVersionId,
        updatedBy: req.user?.id ?? null,
      });
      await this.audit.record(
        req,
        {
          action: 'release.rollback',
          targetType: 'remote',
          targetId: remote,
          before: { liveVersionId: release.liveVersionId },
          after: { liveVersionId: back },
        },
        manager,
      );
    });
    return this.announce(remote);
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
      };
    });
  }
}
