/** The platform context's public face: what other contexts and the composition root may use (see README.md). */
export { PLATFORM_ENTITIES } from './tables';
export { BusModule } from './bus/bus.module';
export { RealtimeBus } from './bus/realtime-bus.service';
export { ApiExceptionFilter, errorBody, messageOf, RetryLater } from './common/api-exception.filter';
export { SecretBox } from './common/crypto/secret-box';
export {
  bearerOf,
  type ConnectMiddleware,
  cookieValue,
  inOneHook,
  isFormPost,
  isOwnNavigation,
  onRawRequest,
  pathOf,
  type RequestStep,
  seeOther,
} from './common/http';
export { NestPinoLogger, accessLog, createLogger, echoRequestId, requestId } from './common/logger';
export { movesOrigin } from './common/origin';
export { linkNextPage, pageOptions } from './common/paging';
export { GroupCommit } from './common/group-commit';
export { JsonBody, PerTurn, toJsonBody } from './common/json-body';
export { PeriodicWork } from './common/periodic-work';
export { IDLE_LOOK_MS, type Repeating } from './common/repeating';
export { newestRead } from './common/newest-read';
export { waitAtMost } from './common/wait-at-most';
export { withUniqueName } from './common/unique-name';
export { ZodPipe } from './common/validation/zod.pipe';
export { APP_CONFIG, ConfigError, loadConfig, warnOfDemoSettings } from './config/config';
export type { AppConfig } from './config/config';
export { parseDnsServers } from './config/dns-servers';
export { createDataSource, migrate, openDatabase } from './database/database';
export type { DatabaseHandle } from './database/database';
export { DATABASE_UNAVAILABLE_MESSAGE, STALE_WHILE_UNAVAILABLE_MS, isDatabaseUnavailable } from './database/database-unavailable';
export { hydrate } from './database/hydrate';
export type { RawRow } from './database/hydrate';
export { seedOnce } from './database/seed-once';
export { DocsModule } from './docs/docs.module';
export { HealthModule } from './health/health.module';
export { MailModule } from './mail/mail.module';
export { MailService } from './mail/mail.service';
export { BUCKET_SLOTS, Family, LATENCY_BUCKETS_SECONDS, bucketOf, exposition } from './observability/exposition';
export type { Labels } from './observability/exposition';
export { HubMetrics, HubMetricsModule } from './observability/hub-metrics';
export {
  OutboundRefusedError,
  OutboundTimeoutError,
  blockedReason,
  judgeTargetUrl,
  outboundGet,
  outboundRequest,
} from './outbound/outbound-http';
export type { TargetPolicy } from './outbound/outbound-http';
export { ClusterLeases } from './replicas/cluster-leases.service';
export { InstanceRegistry } from './replicas/instance-registry.service';
export { ReplicasModule } from './replicas/replicas.module';
export { SHUTDOWN_GRACE_MS, STOP_AFTER_CUT_MS, poolHandle, stopWithin } from './shutdown/shutdown';
export type { StopOutcome } from './shutdown/shutdown';
export {
  ACCESS_KEY,
  ElevationAccount,
  MetricsScrape,
  Public,
  RequireAnyPermission,
  RequirePermission,
  SESSION_ONLY_KEY,
  ServiceAgent,
  SessionOnly,
  SignedIn,
  SuperAdmin,
} from './web/access.decorator';
export type { Access } from './web/access.decorator';
export { checkUnsafeMethodsOnly, isBearerWithoutCookie, protectFromCrossSiteRequests } from './web/cross-origin';
export { isYaml } from './web/media-type';
export { forwardedProto, securityHeaders } from './web/security-headers';
export { mountStaticSite } from './web/static-site';
export { acceptedCopy, CONTENT_TYPES, type CopyEncoding, IMMUTABLE, KeptBytes } from './web/immutable-files';
export { escapeHtml, SMALL_PAGE_STYLE, sendSmallPage, smallPage } from './web/small-page';
export { SqlRunner } from './database/sql-runner';
export type { PrunableHistory } from './database/history';
export { HubEvents } from './bus/hub-events.repository';
export type { HubEvent } from './bus/hub-events.repository';
