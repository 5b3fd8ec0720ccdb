export * from './api';
export * from './live';
