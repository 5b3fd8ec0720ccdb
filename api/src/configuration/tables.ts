import { SampleDataEntity, SampleDataItemEntity } from './sample-data/entities/sample-data.entity';

/** The tables this context owns, as TypeORM entities: the composition root hands them to the DataSource. */
export const CONFIGURATION_ENTITIES = [SampleDataEntity, SampleDataItemEntity];
