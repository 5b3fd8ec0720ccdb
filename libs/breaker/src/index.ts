export * from './types';
export * from './circuit-breaker';
export { AdaptiveFailureRate, ConsecutiveFailures, type TripPolicy } from './trip-policies';
export * from './rolling-metrics';
export * from './load-engine';
