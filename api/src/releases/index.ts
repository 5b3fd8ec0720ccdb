/** The releases context's public face: what other contexts and the composition root may use (see README.md). */
export { RELEASE_ENTITIES } from './tables';
export { acceptReleaseUploads, remoteEntriesFor, serveReleaseFiles } from './release-files';
export { ReleasesModule } from './releases.module';
export { ReleasesService } from './releases.service';
export { CanaryJudges, type CanarySloJudge, type CanaryUnderJudgement, type SloVerdict } from './canary-judges';
