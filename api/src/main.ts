import { ConfigError, createLogger, loadConfig, SHUTDOWN_GRACE_MS, STOP_AFTER_CUT_MS, warnOfDemoSettings } from './platform';
import { createApi } from './app';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);
  warnOfDemoSettings(config, logger);
  const api = await createApi(config, logger);
  await api.app.listen(config.PORT, config.HOST);
  // SIGTERM (and Ctrl-C): the periodic work stops, sockets are told 'going away', load tests are handed over, the
  // replica is marked down and the requests in flight are finished; what still runs after SHUTDOWN_GRACE_MS is cut
  // (api/src/platform/shutdown/shutdown.ts). Should even that not end, the process exits regardless a little later.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: stopping`);
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + STOP_AFTER_CUT_MS + 2000).unref();
    api.close().then(
      (outcome) => {
        logger.info({ ms: outcome.ms, cutQueries: outcome.cutQueries.length }, 'stopped');
        process.exit(outcome.finished ? 0 : 1);
      },
      (error: Error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  logger.info(
    { port: config.PORT, database: api.database.embedded ? 'embedded' : 'DATABASE_URL' },
    `Circuit Breaker Hub is running on http://localhost:${config.PORT}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
