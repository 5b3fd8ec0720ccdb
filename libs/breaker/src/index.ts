export * from './types';
export * from './rejection';
export { Bulkhead } from './bulkhead';
export * from './circuit-breaker';
export { AdaptiveFailureRate, ConsecutiveFailures, type TripPolicy } from './trip-policies';
export * from './rolling-metrics';
export * from './load-engine';
