import { Module } from '@nestjs/common';
import { ReleaseFilesRepository } from './release-files.repository';
import { ReleaseNotifications } from './release-notifications';
import { RemoteLoadsRepository } from './remote-loads.repository';
import { ReleasesController } from './releases.controller';
import { ReleasesService } from './releases.service';

/** Remote releases: versions of each screen area's build, their contract check, promote and rollback. */
@Module({
  controllers: [ReleasesController],
  providers: [ReleasesService, ReleaseFilesRepository, RemoteLoadsRepository, ReleaseNotifications],
  exports: [ReleasesService],
})
export class ReleasesModule {}
