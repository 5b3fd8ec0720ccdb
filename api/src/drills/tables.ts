import { DrillDefinitionEntity } from './entities/drill-definition.entity';
import { DrillEntity } from './entities/drill.entity';

/** The drills context's tables (entities.ts assembles every context's); its holds and fault rows are SQL only. */
export const DRILL_ENTITIES = [DrillEntity, DrillDefinitionEntity];
