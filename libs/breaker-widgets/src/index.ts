export * from './BreakerStateDiagram';
export * from './JournalReplay';
export * from './OverrideBadge';
export * from './StateChart';
export * from './journal-replay';
export * from './metrics-history';
export * from './history-charts-lazy';
export * from './RangePicker';
