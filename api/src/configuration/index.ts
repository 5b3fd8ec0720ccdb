export { BulkModule } from './bulk/bulk.module';
export { ConfigurationModule } from './configuration.module';
export { acceptConfigDocuments } from './document-body';
