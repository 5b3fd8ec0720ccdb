/** The drills context's public face: what other contexts and the composition root may use (see README.md). */
export { DRILL_ENTITIES } from './tables';
export { DrillsModule } from './drills.module';
export { DrillsService } from './drills.service';
export { DrillDefinitionsService } from './drill-definitions.service';
export { DrillBreakerNames, definitionInOrder, refuseUnknownBreakers, type NamedBreaker } from './drill-definitions.breakers';
