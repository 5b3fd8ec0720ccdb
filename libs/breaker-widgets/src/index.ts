export * from './BreakerSettingsSliders';
export * from './LoadTestPanel';
export * from './StateChart';
export * from './metrics-history';
