export { RETENTION_ENTITIES } from './tables';
export { RetentionModule } from './retention.module';
