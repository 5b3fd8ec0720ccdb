import 'reflect-metadata';
import path from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type RequestHandler } from 'express';
import session from 'express-session';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import { AuthService } from './auth/auth.service';
import { configureOidc } from './auth/oidc.strategy';
import { configurePassport } from './auth/local.strategy';
import { readOnlySessions, SessionReader } from './auth/session-reader.service';
import { PgSessionStore, SESSION_COOKIE } from './auth/session-store';
import { RealtimeGateway } from './realtime/realtime.gateway';
import { UserDirectory } from './auth/user-directory.service';
import { ApiExceptionFilter } from './common/api-exception.filter';
import { NestPinoLogger, requestLogger } from './common/logger';
import type { AppConfig } from './config/config';
import { createDataSource, migrate, openDatabase, type DatabaseHandle } from './database/database';
import { sessionWsAdapter } from './realtime/session-ws-adapter';
import { securityHeaders } from './web/security-headers';
import { mountStaticSite } from './web/static-site';

const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60_000;

export interface RunningApi {
  app: NestExpressApplication;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/** Opens the database, applies migrations and builds the HTTP + WebSocket application (not yet listening). */
export async function createApi(config: AppConfig, logger: Logger): Promise<RunningApi> {
  const database = await openDatabase(config, (message) => logger.debug({ component: 'postgres' }, message));
  const dataSource = createDataSource(database.url);
  try {
    await dataSource.initialize();
    const applied = await migrate(dataSource);
    if (applied.length) logger.info({ migrations: applied }, 'applied database migrations');

    const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, dataSource), {
      logger: new NestPinoLogger(logger),
      bufferLogs: false,
      // registered below with the configured size limit
      bodyParser: false,
    });
    // reads carry no body: they skip the parsers (a cost on every signed-in read otherwise)
    const withBody =
      (parser: RequestHandler): RequestHandler =>
      (req, res, next) =>
        req.method === 'GET' || req.method === 'HEAD' ? next() : parser(req, res, next);
    app.use(withBody(express.json({ limit: `${config.MAX_BODY_KB}kb` })));
    app.use(withBody(express.urlencoded({ limit: `${config.MAX_BODY_KB}kb`, extended: true })));
    app.disable('x-powered-by');
    // API answers are dynamic JSON; hashing every body for an ETag costs more than it saves.
    app.set('etag', false);
    app.set('trust proxy', config.TRUST_PROXY);
    app.use(requestLogger(logger));
    app.use(securityHeaders(config.REMOTE_ORIGINS));
    mountStaticSite(app.getHttpAdapter().getInstance(), {
      staticRoot: path.resolve(config.STATIC_ROOT),
      manifestFile: path.resolve(config.REMOTES_MANIFEST),
    });
    const sessionMiddleware = session({
      name: SESSION_COOKIE,
      secret: config.SESSION_SECRET,
      store: app.get(PgSessionStore),
      resave: false,
      saveUninitialized: false,
      cookie: { httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge: SESSION_MAX_AGE_MS },
    });
    const auth = app.get(AuthService);
    const passport = configurePassport(auth, app.get(UserDirectory));
    auth.oidcEnabled = await configureOidc(config, passport, (profile) => auth.accountForOidc(profile));
    const sessionStack = [sessionMiddleware, passport.initialize(), passport.session()];
    const sessions = app.get(SessionReader);
    app.use(readOnlySessions(sessions, sessionStack));
    app.setGlobalPrefix('api', { exclude: ['metrics'] });
    app.useGlobalFilters(new ApiExceptionFilter(logger, config.MAX_BODY_KB));
    const siteOrigins = [new URL(config.PUBLIC_URL).origin, ...config.REMOTE_ORIGINS.map((origin) => new URL(origin).origin)];
    const gateway = app.get(RealtimeGateway);
    app.useWebSocketAdapter(
      sessionWsAdapter(app, logger, (request) => sessions.sessionOf(request), siteOrigins, {
        maxFrameBytes: config.WS_MAX_FRAME_BYTES,
        perSession: config.WS_CONNECTIONS_PER_SESSION,
        connectionsOf: (key) => gateway.connectionsOf(key),
        accepting: () => !gateway.draining,
      }),
    );
    app.enableShutdownHooks();

    return {
      app,
      database,
      close: async () => {
        await app.close();
        await database.stop();
      },
    };
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await database.stop();
    throw error;
  }
}
