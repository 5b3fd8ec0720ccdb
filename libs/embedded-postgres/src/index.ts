export { type EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres';
export { persistentSecret } from './persistent-secret';
