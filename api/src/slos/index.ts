/** The SLO context's public face (see README.md). */
export { SLO_ENTITIES } from './tables';
export { SlosModule } from './slos.module';
export { mayUseSlo, SlosService } from './slos.service';
export type { SloEntity } from './entities/slo.entity';
