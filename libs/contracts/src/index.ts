export * from './roles';
export * from './auth';
export * from './remotes';
export * from './constants';
export * from './errors';
export * from './realtime';
export * from './users';
export * from './breakers';
