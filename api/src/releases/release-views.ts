import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { publicName, RELEASE_LIMITS, REMOTE_NAMES, type ReleaseView, type RemoteVersionView } from '@cbh/contracts';
import { UserEntity } from '../identity';
import { CanaryJudges } from './canary-judges';
import { RemoteReleaseEntity } from './entities/remote-release.entity';
import { RemoteVersionEntity } from './entities/remote-version.entity';
import { RemoteLoadsRepository } from './remote-loads.repository';

/** The releases as the release screen and `cbh release` show them: each remote's versions, live, canary and loads. */
@Injectable()
export class ReleaseViews {
  constructor(
    private readonly dataSource: DataSource,
    private readonly loads: RemoteLoadsRepository,
    private readonly judges: CanaryJudges,
  ) {}

  /** Every remote's release: its live and previous versions, its canary and its newest versions. */
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
              ? {
                  versionId: release.canaryVersionId,
                  percent: release.canaryPercent,
                  startedAt: release.canaryStartedAt.toISOString(),
                  slos: await this.judges.names(remote, release.canarySloIds),
                }
              : null,
          updatedAt: release?.updatedAt.toISOString() ?? null,
          versions: await this.versions(versions),
        };
      }),
    );
  }

  /** A version as the screen shows it: who uploaded it (by name, never an e-mail), its size and its loads. */
  async versions(versions: RemoteVersionEntity[]): Promise<RemoteVersionView[]> {
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
        loads: figures.get(version.id) ?? { count: 0, failed: 0, activeVisitors: 0, p50Ms: null, p95Ms: null, errorsAfterRender: 0 },
      };
    });
  }
}
