import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, warnOfDemoSettings } from './config';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'cbh-config-'));

describe('configuration', () => {
  it('starts with defaults on an empty environment', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SEED_DEMO).toBe(false);
    expect(config.REMOTE_ORIGINS).toEqual([]);
  });

  it('starts the embedded PostgreSQL below the ephemeral ports, so that a retried connection never meets itself', () => {
    // Linux's default ip_local_port_range starts at 32768
    expect(loadConfig({ DATA_DIR: dataDir() }).EMBEDDED_PG_PORT).toBeLessThan(32768);
  });

  it('names every bad variable in one message', () => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: dataDir(), PORT: 'eighty', DATABASE_URL: 'mysql://x', ADMIN_EMAIL: 'nobody', SEED_DEMO: 'maybe' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid configuration:/);
    for (const name of ['PORT', 'DATABASE_URL: must be a postgres:// URL', 'ADMIN_EMAIL', 'SEED_DEMO: use true or false']) {
      expect(message).toContain(name);
    }
  });

  it('trusts only loopback hops to name the client unless told otherwise, and refuses a malformed list', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).TRUST_PROXY).toBe('loopback');
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toBe('loopback, 10.0.0.0/8');
    expect(() => loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: 'true; rm' })).toThrow(/TRUST_PROXY/);
  });

  it('asks for the three OIDC settings together', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), OIDC_ISSUER_URL: 'https://id.example.com' })).toThrow(
      /OIDC_ISSUER_URL: set OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together/,
    );
  });

  it('warns at start while a demo setting is on, naming it, and says nothing otherwise', () => {
    const said: string[] = [];
    const logger = { warn: (message: string) => said.push(message) };
    warnOfDemoSettings(loadConfig({ DATA_DIR: dataDir(), SEED_DEMO: 'true' }), logger);
    warnOfDemoSettings(loadConfig({ DATA_DIR: dataDir(), SEED_DEMO: 'false' }), logger);
    warnOfDemoSettings(loadConfig({ DATA_DIR: dataDir(), ELEVATION_OTP_DISPLAY: 'true' }), logger);
    expect(said).toEqual([
      'demo settings are on (SEED_DEMO, ELEVATION_OTP_DISPLAY): demo accounts and the displayed one-time code are not for production',
      'demo settings are on (ELEVATION_OTP_DISPLAY): demo accounts and the displayed one-time code are not for production',
    ]);
  });

  it('refuses the demo accounts and the displayed one-time code with NODE_ENV=production', () => {
    const production = { DATA_DIR: dataDir(), NODE_ENV: 'production' };
    expect(() => loadConfig({ ...production, SEED_DEMO: 'true' })).toThrow(
      'SEED_DEMO: the demo accounts are not for production (NODE_ENV=production): unset SEED_DEMO',
    );
    expect(() => loadConfig({ ...production, ELEVATION_OTP_DISPLAY: 'true' })).toThrow(
      'ELEVATION_OTP_DISPLAY: the displayed one-time codes are not for production (NODE_ENV=production): unset ELEVATION_OTP_DISPLAY',
    );
    expect(loadConfig({ ...production, SEED_DEMO: 'false' })).toMatchObject({ SEED_DEMO: false, ELEVATION_OTP_DISPLAY: false });
    // outside production the demo data turns the displayed code on by default
    expect(loadConfig({ DATA_DIR: dataDir(), SEED_DEMO: 'true' }).ELEVATION_OTP_DISPLAY).toBe(true);
  });

  it('bounds the domains one account and the site may monitor', () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({ DOMAINS_PER_USER: 50, DOMAINS_TOTAL: 1000 });
    expect(loadConfig({ DATA_DIR: dataDir(), DOMAINS_PER_USER: '500', DOMAINS_TOTAL: '500' })).toMatchObject({
      DOMAINS_PER_USER: 500,
      DOMAINS_TOTAL: 500,
    });
    expect(() => loadConfig({ DATA_DIR: dataDir(), DOMAINS_PER_USER: '0' })).toThrow(/DOMAINS_PER_USER/);
  });

  it('rejects short secrets', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), MASTER_KEY: 'short', SESSION_SECRET: 'short' })).toThrow(
      /MASTER_KEY: must be at least 16 characters[\s\S]*SESSION_SECRET: must be at least 32 characters/,
    );
  });

  it('generates a session secret once and keeps it in the data folder', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).SESSION_SECRET;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(loadConfig({ DATA_DIR: dir }).SESSION_SECRET).toBe(first);
    expect(readFileSync(path.join(dir, 'session-secret'), 'utf8')).toBe(first);
    expect(statSync(path.join(dir, 'session-secret')).mode & 0o077).toBe(0);
  });

  it('reads remote origins for the CSP as a comma-separated list', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), REMOTE_ORIGINS: 'https://cdn.example.com, https://mfe.example.com' });
    expect(config.REMOTE_ORIGINS).toEqual(['https://cdn.example.com', 'https://mfe.example.com']);
    expect(() => loadConfig({ DATA_DIR: dataDir(), REMOTE_ORIGINS: 'not a url' })).toThrow(/REMOTE_ORIGINS/);
  });

  it('reads ALLOW_PRIVATE_TARGETS as true/false or a list of CIDR ranges', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).ALLOW_PRIVATE_TARGETS).toEqual({ allowPrivate: false });
    expect(loadConfig({ DATA_DIR: dataDir(), ALLOW_PRIVATE_TARGETS: 'true' }).ALLOW_PRIVATE_TARGETS).toEqual({ allowPrivate: true });
    expect(loadConfig({ DATA_DIR: dataDir(), ALLOW_PRIVATE_TARGETS: 'false' }).ALLOW_PRIVATE_TARGETS).toEqual({ allowPrivate: false });
    const { allowPrivate } = loadConfig({
      DATA_DIR: dataDir(),
      ALLOW_PRIVATE_TARGETS: '10.20.0.0/16,127.0.0.8/29,fd00:1::/32',
    }).ALLOW_PRIVATE_TARGETS;
    expect(Array.isArray(allowPrivate) && allowPrivate.map((range) => range.text)).toEqual(['10.20.0.0/16', '127.0.0.8/29', 'fd00:1::/32']);
  });

  it('stops on a bad ALLOW_PRIVATE_TARGETS range, naming the variable and the range', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ALLOW_PRIVATE_TARGETS: '10.20.0.0/16,10.300.0.0/16' })).toThrow(
      /ALLOW_PRIVATE_TARGETS: .*"10\.300\.0\.0\/16" is not a CIDR range/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), ALLOW_PRIVATE_TARGETS: 'maybe' })).toThrow(/ALLOW_PRIVATE_TARGETS: use true, false or/);
  });

  it('reads the domain checks’ settings, with their defaults', () => {
    const defaults = loadConfig({ DATA_DIR: dataDir() });
    expect([defaults.DNS_SERVERS, defaults.DOMAIN_HTTPS_PORT, defaults.DOMAIN_HTTP_PORT, defaults.DOMAIN_CHECK_INTERVAL]).toEqual([
      null,
      443,
      80,
      60,
    ]);
    expect(defaults.RDAP_BASE_URL).toBe('https://rdap.org');
    const set = loadConfig({ DATA_DIR: dataDir(), DNS_SERVERS: '127.0.0.1:5353, [::1]:53', DOMAIN_CHECK_INTERVAL: '5' });
    expect(set.DNS_SERVERS).toHaveLength(2);
    expect(set.DOMAIN_CHECK_INTERVAL).toBe(5);
    expect(() => loadConfig({ DATA_DIR: dataDir(), DOMAIN_CHECK_INTERVAL: '4' })).toThrow(
      'DOMAIN_CHECK_INTERVAL: must be at least 5 seconds',
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), DNS_SERVERS: 'not a server:x' })).toThrow(/DNS_SERVERS/);
  });
});
