export * from './api';
export * from './live';
export * from './breakers';
export * from './api-error';
export * from './users';
export * from './domains';
export * from './sessions';
export * from './organization';
