/**
 * The suite's sites: one production site per Playwright worker, each on a database of its own, so that two workers'
 * tests never see each other's breakers, users or settings (they do share the machine). Global setup starts them and
 * names each in the environment by the worker's parallel index (TEST_PARALLEL_INDEX, 0 to workers − 1), which every
 * worker inherits; a worker started again after a failure keeps its index, so its site.
 */
const index = () => process.env.TEST_PARALLEL_INDEX ?? '0';

/** How many workers, so sites, the suite runs with (E2E_WORKERS; two: the machines have two cores). */
export const SUITE_WORKERS = Number(process.env.E2E_WORKERS ?? 2);

export const siteEnvironment = (i: number) => ({
  url: `E2E_BASE_URL_${i}`,
  databaseUrl: `E2E_DATABASE_URL_${i}`,
  pgPort: `E2E_PG_PORT_${i}`,
});

/** This worker's site. */
export const suiteSiteUrl = (): string | undefined => process.env[siteEnvironment(Number(index())).url];
/** This worker's site's database, which its extra replicas share. */
export const suiteDatabaseUrl = (): string => process.env[siteEnvironment(Number(index())).databaseUrl]!;
/** The port of this worker's site's embedded PostgreSQL (unset when DATABASE_URL is). */
export const suitePgPort = (): string | undefined => process.env[siteEnvironment(Number(index())).pgPort];
