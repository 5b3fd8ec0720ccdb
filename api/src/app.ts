import 'reflect-metadata';
import path from 'node:path';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import session from 'express-session';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import {
  authenticateUpgrade,
  AuthService,
  configurePassport,
  exposeSession,
  type Middleware,
  OidcSignIn,
  PgSessionStore,
  readOnlySessions,
  SESSION_COOKIE,
  SessionReader,
  TokenAuthenticator,
  UserDirectory,
} from './identity';
import { acceptAgentReports, AgentStreamGateway, RealtimeGateway, sessionWsAdapter } from './breakers';
import {
  ApiExceptionFilter,
  type AppConfig,
  createDataSource,
  type DatabaseHandle,
  forwardedProto,
  HubMetrics,
  accessLog,
  checkUnsafeMethodsOnly,
  echoRequestId,
  inOneHook,
  migrate,
  mountStaticSite,
  NestPinoLogger,
  onRawRequest,
  openDatabase,
  poolHandle,
  protectFromCrossSiteRequests,
  requestId,
  securityHeaders,
  type StopOutcome,
  stopWithin,
} from './platform';
import { acceptConfigDocuments } from './configuration';
import { acceptReleaseUploads, ReleasesService, remoteEntriesFor, serveReleaseFiles } from './releases';
import { ENTITIES } from './entities';

const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60_000;

export interface RunningApi {
  app: NestFastifyApplication;
  database: DatabaseHandle;
  /** Stops within SHUTDOWN_GRACE_MS (see stopWithin), then the embedded database if there is one. */
  close(): Promise<StopOutcome>;
}

/**
 * Nest on Fastify, with the site's pages answered where Nest would answer 404 (the shell routes in the browser), and
 * Nest's cross-site check run on the methods it refuses (checkUnsafeMethodsOnly).
 */
class SiteAdapter extends FastifyAdapter {
  pageFallback: (request: FastifyRequest, reply: FastifyReply) => boolean = () => false;

  override registerSecurityHook(hook: Parameters<FastifyAdapter['registerSecurityHook']>[0]) {
    super.registerSecurityHook(checkUnsafeMethodsOnly(hook));
  }

  override setNotFoundHandler(handler: (request: FastifyRequest, reply: FastifyReply) => unknown) {
    return super.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      if (!this.pageFallback(request, reply)) return handler(request, reply);
    });
  }
}

/** Opens the database, applies migrations and builds the HTTP + WebSocket application (not yet listening). */
export async function createApi(config: AppConfig, logger: Logger): Promise<RunningApi> {
  const database = await openDatabase(config, (message) => logger.debug({ component: 'postgres' }, message));
  const dataSource = createDataSource(database.url, ENTITIES);
  try {
    await dataSource.initialize();
    const pool = poolHandle(dataSource);
    const applied = await migrate(dataSource);
    if (applied.length) logger.info({ migrations: applied }, 'applied database migrations');

    const adapter = new SiteAdapter({
      bodyLimit: config.MAX_BODY_KB * 1024,
      trustProxy: config.TRUST_PROXY,
      // an id per request: the caller's x-request-id when it is a plain token, else a new one (logs, audit entries)
      genReqId: requestId,
      requestIdHeader: false,
      logger: false,
      // no Nest middleware: the connect-style ones below run as onRequest hooks (onRawRequest)
      skipMiddie: true,
    });
    const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config, dataSource), adapter, {
      logger: new NestPinoLogger(logger),
      bufferLogs: false,
    });
    const http = app.getHttpAdapter().getInstance();
    const logAccess = accessLog(logger);
    const metrics = app.get(HubMetrics);
    // one hook for what every answered request leaves behind: its access line and its time in the metrics
    http.addHook('onResponse', (request, reply, done) => {
      metrics.timeRequest(request, reply);
      logAccess(request, reply);
      done();
    });
    const siteOrigins = [new URL(config.PUBLIC_URL).origin, ...config.REMOTE_ORIGINS.map((origin) => new URL(origin).origin)];
    const refuseOtherBodyTypes = protectFromCrossSiteRequests(app, siteOrigins);
    acceptConfigDocuments(http);
    acceptAgentReports(http);
    acceptReleaseUploads(http);
    const releases = app.get(ReleasesService);
    serveReleaseFiles(http, releases);
    adapter.pageFallback = await mountStaticSite(http, {
      staticRoot: path.resolve(config.STATIC_ROOT),
      manifestFile: path.resolve(config.REMOTES_MANIFEST),
      entriesFor: remoteEntriesFor(releases),
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
    auth.passport = passport;
    auth.oidc = await OidcSignIn.discover(config);
    const sessionStack = [sessionMiddleware, passport.initialize(), passport.session()] as Middleware[];
    const sessions = app.get(SessionReader);
    exposeSession(http);
    http.addHook(
      'onRequest',
      inOneHook([
        echoRequestId,
        refuseOtherBodyTypes,
        onRawRequest(forwardedProto(config.TRUST_PROXY)),
        securityHeaders(config.REMOTE_ORIGINS),
        readOnlySessions(sessions, sessionStack),
      ]),
    );
    // the status pages, their feeds and badges answer at the site's root, beside the SPA's pages
    app.setGlobalPrefix('api', { exclude: ['metrics', 'status/{*path}', 'badge/{*path}'] });
    app.useGlobalFilters(new ApiExceptionFilter(logger, config.MAX_BODY_KB));
    const gateway = app.get(RealtimeGateway);
    const agentStreams = app.get(AgentStreamGateway);
    app.useWebSocketAdapter(
      sessionWsAdapter(
        app,
        logger,
        authenticateUpgrade(sessions, app.get(TokenAuthenticator)),
        siteOrigins,
        {
          maxFrameBytes: config.WS_MAX_FRAME_BYTES,
          perSession: config.WS_CONNECTIONS_PER_SESSION,
          connectionsOf: (key) => gateway.connectionsOf(key),
          accepting: () => !gateway.draining,
        },
        { streamsOf: (key) => agentStreams.streamsOf(key), accepting: () => !agentStreams.draining },
      ),
    );
    return {
      app,
      database,
      // SIGTERM and SIGINT call this (main.ts) rather than Nest's own shutdown hooks, which wait without a bound
      close: async () => {
        const outcome = await stopWithin(app, pool, logger);
        await database.stop();
        return outcome;
      },
    };
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await database.stop();
    throw error;
  }
}
