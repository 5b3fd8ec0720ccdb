import { RetentionSettingsEntity } from './entities/retention-settings.entity';

/** The tables this context owns, as TypeORM entities: the composition root hands them to the DataSource. */
export const RETENTION_ENTITIES = [RetentionSettingsEntity];
