/** The SLO context's public face (see README.md). */
export { SLO_ENTITIES } from './tables';
export { SlosModule } from './slos.module';
export { SlosService } from './slos.service';
