export * from './BreakerSettingsSliders';
export * from './LoadTestPanel';
export * from './TimeSeriesChart';
export * from './metrics-history';
