export * from './api';
export * from './live';
export * from './breakers';
