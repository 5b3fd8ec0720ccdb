/*
 * What the agent and @cbh/breaker take from @cbh/contracts: the package's build (tsconfig.build.json) maps
 * @cbh/contracts here, so that only these files are compiled into dist, none of which needs a schema library at
 * run time. A word the agent starts to use from another contracts file is added here, or the build fails.
 */
export * from '../../contracts/src/agent-protocol';
export * from '../../contracts/src/breaker-vocabulary';
export * from '../../contracts/src/manual-control';
export type { BreakerSettings, BreakerTransition } from '../../contracts/src/breakers';
