/** The retention context's public face: what other contexts and the composition root may use (see README.md). */
export { RETENTION_ENTITIES } from './tables';
export { RetentionModule } from './retention.module';
