export * from './BreakerSettingsSliders';
export * from './BreakerStateDiagram';
export * from './JournalReplay';
export * from './LoadTestPanel';
export * from './OverrideBadge';
export * from './StateChart';
export * from './journal-replay';
export * from './metrics-history';
