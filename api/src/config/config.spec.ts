import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from './config';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'cbh-config-'));

describe('configuration', () => {
  it('starts with defaults on an empty environment', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SEED_DEMO).toBe(false);
    expect(config.REMOTE_ORIGINS).toEqual([]);
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

  it('asks for the three OIDC settings together', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), OIDC_ISSUER_URL: 'https://id.example.com' })).toThrow(
      /OIDC_ISSUER_URL: set OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together/,
    );
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
});
