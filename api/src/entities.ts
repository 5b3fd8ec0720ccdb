import { PLATFORM_ENTITIES } from './platform';
import { IDENTITY_ENTITIES } from './identity';
import { BREAKER_ENTITIES } from './breakers';
import { DOMAIN_ENTITIES } from './domains';
import { NOTIFICATION_ENTITIES } from './notifications';
import { RELEASE_ENTITIES } from './releases';
import { RETENTION_ENTITIES } from './retention';
import { CONFIGURATION_ENTITIES } from './configuration';
import { STATUS_ENTITIES } from './status';
import { ON_CALL_ENTITIES } from './on-call';
import { SLO_ENTITIES } from './slos';
import { DRILL_ENTITIES } from './drills';

/**
 * Every context's entities, for the one DataSource: each context declares its own (its tables.ts), and only the
 * composition root assembles them, so that no context has to know another's tables.
 */
export const ENTITIES = [
  ...PLATFORM_ENTITIES,
  ...IDENTITY_ENTITIES,
  ...BREAKER_ENTITIES,
  ...DOMAIN_ENTITIES,
  ...NOTIFICATION_ENTITIES,
  ...RELEASE_ENTITIES,
  ...RETENTION_ENTITIES,
  ...CONFIGURATION_ENTITIES,
  ...STATUS_ENTITIES,
  ...ON_CALL_ENTITIES,
  ...SLO_ENTITIES,
  ...DRILL_ENTITIES,
];
