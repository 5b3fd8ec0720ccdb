import { ConfigError, loadConfig } from './config/config';
import { createApi } from './app';
import { createLogger } from './common/logger';

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
  const api = await createApi(config, logger);
  await api.app.listen(config.PORT, config.HOST);
  logger.info(
    { port: config.PORT, database: api.database.embedded ? 'embedded' : 'DATABASE_URL' },
    `Circuit Breaker Hub is running on http://localhost:${config.PORT}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
