export * from './rolling-window';
export * from './adapters/adapter';
export * from './adapters/opossum';
export * from './adapters/cockatiel';
export * from './adapters/cbh';
export * from './agent';
