/** The configuration context's public face: what other contexts and the composition root may use (see README.md). */
export { BulkModule } from './bulk/bulk.module';
export { ConfigurationModule } from './configuration.module';
export { acceptConfigDocuments } from './document-body';
export { CONFIGURATION_ENTITIES } from './tables';
