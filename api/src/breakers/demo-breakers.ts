import type { BreakerConfigEntity } from './entities/breaker-config.entity';

/** The demo breakers SEED_DEMO adds, one per type. */
export const DEMO_BREAKERS: Partial<BreakerConfigEntity>[] = [
  { name: 'Payment Gateway', type: 'simple', failureThreshold: 5, timeout: 30_000, recoveryTime: 60_000, successThreshold: 3 },
  {
    name: 'Inventory Service',
    type: 'adaptive',
    failureThreshold: 5,
    timeout: 30_000,
    recoveryTime: 60_000,
    successThreshold: 3,
    minimumCalls: 10,
    slowCallDuration: 1000,
  },
  {
    name: 'Search API',
    type: 'bulkhead',
    failureThreshold: 5,
    timeout: 30_000,
    recoveryTime: 60_000,
    successThreshold: 3,
    maxConcurrentCalls: 10,
    maxQueue: 0,
  },
];
