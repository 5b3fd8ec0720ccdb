import { CHAOS_ENDPOINT, CONFIG_DOCUMENT_VERSION, RULE_DEFAULTS, type ConfigDocument, type ManualAction } from '@cbh/contracts';

const SECONDS = 1000;

/**
 * What "Load sample data" adds, as a configuration document: two breakers of each type, two services answered by
 * their own chaos targets, a domain under a name reserved for examples (it resolves nowhere, so its checks never
 * reach anyone), and a rule sending the sample breakers' openings and recoveries to a log channel.
 */
export const SAMPLE_DOCUMENT: ConfigDocument = {
  version: CONFIG_DOCUMENT_VERSION,
  breakers: [
    { name: 'Checkout API', type: 'simple', failureThreshold: 5, timeout: 3 * SECONDS, recoveryTime: 20 * SECONDS, successThreshold: 2 },
    { name: 'Email Relay', type: 'simple', failureThreshold: 8, timeout: 10 * SECONDS, recoveryTime: 60 * SECONDS, successThreshold: 3 },
    {
      name: 'Recommendations',
      type: 'adaptive',
      failureThreshold: 5,
      timeout: 2 * SECONDS,
      recoveryTime: 30 * SECONDS,
      successThreshold: 3,
      minimumCalls: 10,
      slowCallDuration: 800,
    },
    {
      name: 'Pricing Engine',
      type: 'adaptive',
      failureThreshold: 6,
      timeout: 5 * SECONDS,
      recoveryTime: 45 * SECONDS,
      successThreshold: 3,
      minimumCalls: 20,
      slowCallDuration: 1500,
    },
    {
      name: 'Image Resizer',
      type: 'bulkhead',
      failureThreshold: 5,
      timeout: 8 * SECONDS,
      recoveryTime: 30 * SECONDS,
      successThreshold: 2,
      maxConcurrentCalls: 8,
      maxQueue: 4,
    },
    {
      name: 'Report Export',
      type: 'bulkhead',
      failureThreshold: 4,
      timeout: 30 * SECONDS,
      recoveryTime: 60 * SECONDS,
      successThreshold: 2,
      maxConcurrentCalls: 2,
      maxQueue: 0,
    },
  ],
  services: [
    { name: 'Storefront', endpoint: CHAOS_ENDPOINT, failureRate: 10, averageResponseTime: 120, breaker: 'Checkout API' },
    { name: 'Catalog', endpoint: CHAOS_ENDPOINT, failureRate: 25, averageResponseTime: 200, breaker: 'Recommendations' },
  ],
  domains: [{ name: 'status.example.test' }],
  channels: [{ name: 'Sample log', type: 'log' }],
  notificationRules: [
    {
      name: 'Sample breakers opening',
      enabled: true,
      events: ['breaker.opened', 'breaker.recovered'],
      channels: ['Sample log'],
      breakers: ['Checkout API', 'Email Relay', 'Recommendations', 'Pricing Engine', 'Image Resizer', 'Report Export'],
      breakerTypes: [],
      domains: [],
      severities: [],
      ...RULE_DEFAULTS,
      minIntervalMinutes: 1,
    },
  ],
};

/**
 * The history the sample breakers start with, made as an operator would: load tests that give the charts, figures
 * and journal something to show (Checkout API's failures open it within seconds), and a manual control tried and
 * undone, which the journal shows with its reason.
 */
export const SAMPLE_LOAD_TESTS: { breaker: string; failureRate: number; requestRate: number; duration: number }[] = [
  { breaker: 'Checkout API', failureRate: 60, requestRate: 10, duration: 3 },
  { breaker: 'Recommendations', failureRate: 15, requestRate: 20, duration: 3 },
  { breaker: 'Image Resizer', failureRate: 5, requestRate: 15, duration: 3 },
];
export const SAMPLE_CONTROLS: { breaker: string; actions: ManualAction[] } = { breaker: 'Email Relay', actions: ['force-open', 'reset'] };
