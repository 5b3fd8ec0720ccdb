import path from 'node:path';
import { z } from 'zod';
import { AGENT_REPORT_EVERY_MS, DEFAULT_MAX_BODY_KB } from '@cbh/contracts';
import { persistentSecret } from '@cbh/embedded-postgres';
import { parseDnsServers } from './dns-servers';
import { parseTargetPolicy, type TargetPolicy } from '../outbound/outbound-http';

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'use true or false' })
  .transform((value) => ['true', '1', 'yes'].includes(value));

// true/false or a list of CIDR ranges; a range that does not parse stops start-up rather than being ignored.
const targetPolicy = z.string().transform((value, ctx): TargetPolicy => {
  try {
    return parseTargetPolicy(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

const emptyAsUnset = (value: unknown) => (value === '' ? undefined : value);

// host:port resolvers for every domain DNS look-up; unset means the system's
const dnsServers = z.string().transform((value, ctx): string[] | null => {
  try {
    return parseDnsServers(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});
// the part of an e-mail address after its @: dot-separated labels of letters, digits and inner hyphens
const EMAIL_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsUnset, schema.optional());

/** The settings that turn on teaching aids no production site may have, and what they turn on. */
const DEMO_SETTINGS = [
  ['SEED_DEMO', 'the demo accounts'],
  ['ELEVATION_OTP_DISPLAY', 'the displayed one-time codes'],
] as const;

/**
 * Said at every start while a teaching aid is on (production refuses them in loadConfig), so that no one mistakes a
 * demo site for a real one.
 */
export function warnOfDemoSettings(
  config: Pick<AppConfig, 'SEED_DEMO' | 'ELEVATION_OTP_DISPLAY'>,
  logger: { warn(message: string): void },
) {
  const on = DEMO_SETTINGS.filter(([name]) => config[name]).map(([name]) => name);
  if (on.length)
    logger.warn(`demo settings are on (${on.join(', ')}): demo accounts and the displayed one-time code are not for production`);
}

export const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: optional(z.url({ protocol: /^postgres(ql)?$/, message: 'must be a postgres:// URL' })),
    DATA_DIR: z.string().default('.data'),
    // below Linux's ephemeral ports (32768–60999): while the database is down, a connection the API retries to a port
    // in that range can be given that very port as its own and connect to itself
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(25432),
    STATIC_ROOT: z.string().default('dist'),
    REMOTES_MANIFEST: z.string().default('remotes.json'),
    REMOTE_ORIGINS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.url({ message: 'REMOTE_ORIGINS is a comma-separated list of origins' }))),
    ADMIN_EMAIL: z.email().default('admin@example.com'),
    ADMIN_PASSWORD: optional(z.string().min(12, 'must be at least 12 characters')),
    ELEVATION_EMAIL: optional(z.email()),
    MASTER_KEY: optional(z.string().min(16, 'must be at least 16 characters')),
    SESSION_SECRET: optional(z.string().min(32, 'must be at least 32 characters')),
    SMTP_URL: optional(z.url({ protocol: /^smtps?$/, message: 'must be an smtp:// or smtps:// URL' })),
    OIDC_ISSUER_URL: optional(z.url()),
    OIDC_CLIENT_ID: optional(z.string().min(1)),
    OIDC_CLIENT_SECRET: optional(z.string().min(1)),
    // e-mail domains an OpenID Connect sign-in may create accounts for; empty: any
    OIDC_ALLOWED_DOMAINS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((domain) => domain.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(
        z.array(z.string().regex(EMAIL_DOMAIN, 'OIDC_ALLOWED_DOMAINS is a comma-separated list of e-mail domains such as example.com')),
      ),
    PUBLIC_URL: optional(z.url({ message: 'must be the URL people open the site at' })),
    SEED_DEMO: z.preprocess(emptyAsUnset, flag.default(false)),
    DEMO_PASSWORD: optional(z.string().min(12, 'must be at least 12 characters')),
    ELEVATION_OTP_DISPLAY: z.preprocess(emptyAsUnset, flag.optional()),
    METRICS_TOKEN: optional(z.string().min(16, 'must be at least 16 characters')),
    ALLOW_PRIVATE_TARGETS: z.preprocess(emptyAsUnset, targetPolicy.default({ allowPrivate: false })),
    DNS_SERVERS: z.preprocess(emptyAsUnset, dnsServers.optional()).transform((value) => value ?? null),
    DOMAIN_HTTPS_PORT: port(443),
    DOMAIN_HTTP_PORT: port(80),
    DOMAIN_CHECK_INTERVAL: z.coerce.number().int('must be whole seconds').min(5, 'must be at least 5 seconds').default(60),
    MAX_BODY_KB: z.coerce.number().int().min(1).max(10_240).default(DEFAULT_MAX_BODY_KB),
    // which hops may say who the client is (X-Forwarded-For): only the gateway in front, never any client
    TRUST_PROXY: z
      .string()
      .regex(/^[\w:./, -]+$/, 'must be a list of addresses, subnets or names such as loopback, uniquelocal')
      .default('loopback'),
    LOAD_TESTS_PER_USER: z.coerce.number().int().min(1).max(10_000).default(5),
    LOAD_TESTS_TOTAL: z.coerce.number().int().min(1).max(10_000).default(200),
    // every domain costs a round of outbound checks each DOMAIN_CHECK_INTERVAL, so the list is bounded
    DOMAINS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(50),
    DOMAINS_TOTAL: z.coerce.number().int().min(1).max(100_000).default(1000),
    // requests one personal access token may make in a minute, counted across replicas
    TOKEN_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(600),
    // agents' reports one service account may send in a minute, all its tokens together, counted across replicas
    AGENT_REPORT_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(6000),
    // how often agents are asked to report (ms), in every reply; an instance silent for three of these is stale. A
    // large fleet reports less often: each report costs the replicas and PostgreSQL the same whatever its period
    AGENT_REPORT_EVERY_MS: z.coerce
      .number()
      .int('must be whole milliseconds')
      .min(250, 'must be at least 250 ms')
      .max(60_000, 'must be at most 60000 ms')
      .default(AGENT_REPORT_EVERY_MS),
    // a canary is rolled back when this share (percent) of the people who loaded it saw it fail, once this many have
    CANARY_ROLLBACK_PERCENT: z.coerce.number().min(0.1).max(100).default(5),
    CANARY_ROLLBACK_VISITORS: z.coerce.number().int().min(1).max(100_000).default(20),
    // a canary judged by SLOs is judged once it has had this many loads (and errors after render) in the last 10 minutes
    CANARY_SLO_MIN_LOADS: z.coerce.number().int().min(1).max(100_000).default(20),
    WS_CONNECTIONS_PER_SESSION: z.coerce.number().int().min(1).max(100_000).default(10),
    WS_MAX_FRAME_BYTES: z.coerce.number().int().min(256).max(1_048_576).default(4096),
    // versions of each remote kept: after an upload the oldest that are neither live, previous nor canary go
    RELEASE_VERSIONS_KEPT: z.coerce.number().int().min(3).max(1000).default(20),
    // how long an escalation policy's minute lasts, in seconds: 60, but a test or a drill may run a policy faster
    ESCALATION_MINUTE_SECONDS: z.coerce.number().min(0.01).max(60).default(60),
    RDAP_BASE_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).default('https://rdap.org'),
    NODE_ENV: optional(z.string()),
  })
  .superRefine((env, ctx) => {
    const oidc = [env.OIDC_ISSUER_URL, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER_URL'],
        message: 'set OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together, or none of them',
      });
    }
    // The demo accounts share one known password, and a displayed code lets the elevation account's password alone
    // pass the one-time-code elevation.
    if (env.NODE_ENV === 'production') {
      for (const [name, what] of DEMO_SETTINGS) {
        if (env[name])
          ctx.addIssue({ code: 'custom', path: [name], message: `${what} are not for production (NODE_ENV=production): unset ${name}` });
      }
    }
  });

export type AppConfig = z.infer<typeof envSchema> & {
  SESSION_SECRET: string;
  DATA_DIR: string;
  PUBLIC_URL: string;
  ELEVATION_OTP_DISPLAY: boolean;
};

export class ConfigError extends Error {}

/** Reads and checks the environment; every problem is named with its variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || 'environment'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  const dataDir = path.resolve(config.DATA_DIR);
  return {
    ...config,
    DATA_DIR: dataDir,
    SESSION_SECRET: config.SESSION_SECRET ?? persistentSecret(dataDir, 'session-secret'),
    PUBLIC_URL: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, ''),
    // Showing the current code is a teaching aid: on by default only with the demo data.
    ELEVATION_OTP_DISPLAY: config.ELEVATION_OTP_DISPLAY ?? config.SEED_DEMO,
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');
