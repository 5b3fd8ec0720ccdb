export * from './random';
export * from './scheduler';
export * from './simulation';
export * from './cqrs';
export * from './event-sourcing';
export * from './saga';
export * from './hexagonal';
export * from './domain-driven-design';
