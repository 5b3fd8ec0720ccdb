import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { AGENT_PROTOCOL_LIMITS, CONFIG_DOCUMENT_MAX_BYTES, RELEASE_UPLOAD_MAX_BYTES } from '@cbh/contracts';
import { DEFAULT_BODY_BYTES, REMOTE_FOLDERS } from '../tools/testing/site-layout';

const ROOT = path.resolve(__dirname, '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  deploy?: { replicas?: number };
  environment?: Record<string, string>;
  ports?: string[];
  expose?: string[];
  volumes?: string[];
  depends_on?: string[] | Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const gateway = read('deploy/nginx/gateway.conf');

/** location blocks of an nginx config: path → body */
function locations(conf: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const match of conf.matchAll(/location\s+([=~]\s+)?(\S+)\s*\{([^}]*)\}/g)) blocks.set(match[2]!, match[3]!);
  return blocks;
}

describe('docker-compose.yml', () => {
  it('has postgres, the api, the gateway, the shell and one static server per remote', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'gateway', 'postgres', 'shell', ...REMOTE_FOLDERS].sort());
  });

  it('runs two API replicas on the compose PostgreSQL, after it is healthy', () => {
    const api = services.api!;
    expect(api.deploy?.replicas).toBe(2);
    expect(api.environment?.DATABASE_URL).toMatch(/^postgres:\/\/cbh:\$\{POSTGRES_PASSWORD\}@postgres:5432\/circuit_breaker_hub$/);
    expect(api.environment?.PORT).toBe('3000');
    expect(api.expose).toEqual(['3000']);
    expect(api.ports).toBeUndefined();
    expect(api.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(existsSync(path.join(ROOT, api.build!.dockerfile))).toBe(true);
    expect(services.postgres!.environment?.POSTGRES_DB).toBe('circuit_breaker_hub');
  });

  it('checks each API replica through its own /api/health, which fails while the database is down', () => {
    const test = services.api!.healthcheck!.test;
    expect(test.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
    expect(test[3]).toContain("fetch('http://127.0.0.1:3000/api/health')");
    expect(test[3]).toContain('process.exit(r.ok ? 0 : 1)');
  });

  it('keeps secrets out of the file: they come from the environment', () => {
    expect(services.postgres!.environment?.POSTGRES_PASSWORD).toBe('${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}');
    expect(services.api!.environment?.SESSION_SECRET).toMatch(/^\$\{SESSION_SECRET:\?/);
  });

  it.each(['shell', ...REMOTE_FOLDERS])('serves dist/%s from its own static server with the cache rules', (app) => {
    const volumes = services[app]!.volumes!;
    expect(services[app]!.image).toMatch(/^nginx:/);
    expect(volumes).toContain(`./dist/${app}:/usr/share/nginx/html:ro`);
    expect(volumes).toContain('./deploy/nginx/static.conf:/etc/nginx/conf.d/default.conf:ro');
  });

  it('gives the API the deployment manifest, which it serves as /remotes.json with the released versions', () => {
    expect(read('deploy/api.Dockerfile')).toMatch(/^COPY remotes\.json \.\/$/m);
    expect(services.shell!.volumes!.some((volume) => volume.includes('remotes.json'))).toBe(false);
  });

  it('exposes only the gateway, on port 8080, after everything it routes to', () => {
    const exposed = Object.entries(services)
      .filter(([, service]) => service.ports?.length)
      .map(([name]) => name);
    expect(exposed).toEqual(['gateway']);
    expect(services.gateway!.ports).toEqual(['8080:80']);
    expect([...(services.gateway!.depends_on as string[])].sort()).toEqual(['api', 'shell', ...REMOTE_FOLDERS].sort());
  });
});

describe('gateway routes', () => {
  const routes = locations(gateway);

  it('sends /api, /metrics, /ws, /remotes.json and /releases/ to the API replicas, the WebSocket with an upgrade', () => {
    expect(gateway).toMatch(/upstream api \{\s*server api:3000 [^;]*;\s*\}/);
    for (const path of ['/remotes.json', '/releases/']) expect(routes.get(path)?.trim()).toBe('proxy_pass http://api;');
    expect(routes.get('/api/')).toContain('proxy_pass http://api;');
    expect(routes.get('/metrics')?.trim()).toBe('proxy_pass http://api;');
    const ws = routes.get('/ws')!;
    expect(ws).toContain('proxy_pass http://api;');
    expect(ws).toContain('proxy_set_header Upgrade $http_upgrade;');
    expect(ws).toContain('proxy_set_header Connection $connection_upgrade;');
    const stream = routes.get('/api/agent/stream')!;
    expect(stream).toContain('proxy_pass http://api;');
    expect(stream).toContain('proxy_set_header Upgrade $http_upgrade;');
    expect(stream).toContain('proxy_set_header Connection $connection_upgrade;');
  });

  it.each(REMOTE_FOLDERS)('sends /remotes/%s/ to that remote’s static server', (folder) => {
    expect(routes.get(`/remotes/${folder}/`)).toContain(`proxy_pass http://${folder}/;`);
  });

  it('sends every other path to the shell', () => {
    expect(routes.get('/')).toContain('proxy_pass http://shell;');
    const api = [
      '/api/',
      '/api/import',
      '/api/agent/reports',
      '/api/agent/stream',
      '^/api/releases/[^/]+/(versions|check)$',
      '/metrics',
      '/ws',
    ];
    expect([...routes.keys()].sort()).toEqual(
      [
        '/',
        ...api,
        '/remotes.json',
        '/releases/',
        '/status/',
        '/badge/',
        '@too-large',
        ...REMOTE_FOLDERS.map((f) => `/remotes/${f}/`),
      ].sort(),
    );
  });

  // e2e/gateway.e2e.ts sends bodies of these sizes through nginx; here each is the API's own constant
  it('takes request bodies as large as the API does on each route', () => {
    const units: Record<string, number> = { k: 1024, m: 1024 * 1024 };
    const limitOf = (block: string) => {
      const [, amount, unit] = /client_max_body_size (\d+)([km]?);/.exec(block)!;
      return Number(amount) * (unit ? units[unit]! : 1);
    };
    // the API's default, MAX_BODY_KB unset
    const serverLevel = gateway
      .split('\n')
      .filter((line) => /^ {2}\S/.test(line))
      .join('\n');
    expect(limitOf(serverLevel)).toBe(DEFAULT_BODY_BYTES);
    expect(limitOf(routes.get('/api/import')!)).toBe(CONFIG_DOCUMENT_MAX_BYTES);
    expect(limitOf(routes.get('/api/agent/reports')!)).toBe(AGENT_PROTOCOL_LIMITS.reportBytes);
    expect(limitOf(routes.get('^/api/releases/[^/]+/(versions|check)$')!)).toBe(RELEASE_UPLOAD_MAX_BYTES);
  });

  // deploy/gateway-headers.spec.ts runs nginx with these and compares the headers with the API's
  it('adds the site’s security headers to what the static servers serve, and leaves the API’s answers to the API', () => {
    const include = 'include snippets/security-headers.conf;';
    for (const path of ['/', ...REMOTE_FOLDERS.map((f) => `/remotes/${f}/`)]) expect(routes.get(path)).toContain(include);
    for (const path of ['/api/', '/metrics', '/ws', '/remotes.json', '/releases/', '/status/', '/badge/'])
      expect(routes.get(path)).not.toContain(include);
    expect(services.gateway!.volumes).toContain('./deploy/nginx/security-headers.conf:/etc/nginx/snippets/security-headers.conf:ro');
  });
});

describe('static server config', () => {
  const staticRoutes = locations(read('deploy/nginx/static.conf'));

  it('caches hashed chunks for good and revalidates everything else', () => {
    const conf = read('deploy/nginx/static.conf');
    expect(conf).toMatch(
      /location ~\* "\\\.\[0-9a-f\]\{8,\}\\\.\(js\|css\)\$" \{\s*add_header Cache-Control "public, max-age=31536000, immutable";/,
    );
    expect(staticRoutes.get('/')).toContain('add_header Cache-Control "no-cache";');
    expect(staticRoutes.get('/')).toContain('try_files $uri /index.html =404;');
  });
});
