import { ConfigError, loadConfig, warnOfDemoSettings } from './config/config';
import { createApi } from './app';
import { createLogger } from './common/logger';

const SHUTDOWN_GRACE_MS = 10_000;

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
  // SIGTERM: Nest closes the application (sockets told 'going away', load tests handed over, the replica marked
  // down) and the HTTP server finishes the requests in flight; after 10 s those still open are cut.
  process.once('SIGTERM', () => {
    const server = api.app.getHttpServer() as import('node:http').Server;
    // a keep-alive connection whose request was still running when the server closed is let go once answered
    setInterval(() => server.closeIdleConnections(), 200).unref();
    setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + 5000).unref();
  });
  logger.info(
    { port: config.PORT, database: api.database.embedded ? 'embedded' : 'DATABASE_URL' },
    `Circuit Breaker Hub is running on http://localhost:${config.PORT}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
