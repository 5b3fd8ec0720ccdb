import { RemoteReleaseEntity } from './entities/remote-release.entity';
import { RemoteVersionEntity } from './entities/remote-version.entity';

/** The tables this context owns, as TypeORM entities: the composition root hands them to the DataSource. */
export const RELEASE_ENTITIES = [RemoteReleaseEntity, RemoteVersionEntity];
