export { RELEASE_ENTITIES } from './tables';
export { acceptReleaseUploads, remoteEntriesFor, serveReleaseFiles } from './release-files';
export { ReleasesModule } from './releases.module';
export { ReleasesService } from './releases.service';
