import { Module } from '@nestjs/common';
import { CanaryJudges } from './canary-judges';
import { ReleaseFileStore } from './release-file-store';
import { ReleaseFilesRepository } from './release-files.repository';
import { ReleaseLoadsService } from './release-loads.service';
import { ReleaseNotifications } from './release-notifications';
import { ReleaseState } from './release-state.service';
import { ReleaseVersionsRepository } from './release-versions.repository';
import { ReleaseViews } from './release-views';
import { RemoteLoadsRepository } from './remote-loads.repository';
import { ReleasesController } from './releases.controller';
import { ReleasesService } from './releases.service';

/** Remote releases: versions of each screen area's build, their contract check, promote and rollback. */
@Module({
  controllers: [ReleasesController],
  providers: [
    ReleasesService,
    ReleaseState,
    ReleaseFileStore,
    ReleaseLoadsService,
    ReleaseFilesRepository,
    ReleaseVersionsRepository,
    RemoteLoadsRepository,
    ReleaseNotifications,
    ReleaseViews,
    CanaryJudges,
  ],
  exports: [ReleasesService, CanaryJudges],
})
export class ReleasesModule {}
