import { BreakerConfigEntity } from './entities/breaker-config.entity';
import { ScrapeTargetEntity } from './scrape/entities/scrape-target.entity';
import { BreakerTransitionEntity } from './entities/breaker-transition.entity';
import { TestSessionEntity } from './load-tests/entities/test-session.entity';
import { MetricBucketEntity } from './metrics/entities/metric-bucket.entity';
import { ServiceEntity } from './services/entities/service.entity';

/** The tables this context owns, as TypeORM entities: the composition root hands them to the DataSource. */
export const BREAKER_ENTITIES = [
  BreakerConfigEntity,
  ScrapeTargetEntity,
  BreakerTransitionEntity,
  TestSessionEntity,
  MetricBucketEntity,
  ServiceEntity,
];
