import { SloEntity } from './entities/slo.entity';

/** The SLO context's tables (entities.ts assembles every context's for the DataSource); its counts are SQL only. */
export const SLO_ENTITIES = [SloEntity];
