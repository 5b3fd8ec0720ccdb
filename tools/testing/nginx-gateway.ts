import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.mjs';
import { SITE_APPS } from './site-layout';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Debian's nginx, or null where it is not installed (npm test installs it as root). */
export const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((candidate) => existsSync(candidate)) ?? null;

export interface Gateway {
  /** The site's one origin, as users reach it. */
  url: string;
  /** The access log: one line per request once it ended, `<status> <upstream addresses> <request line>`. */
  accessLog(): string[];
  /**
   * The connections nginx holds open to an API replica right now. nginx opens one per request and closes it with
   * the answer, so once requests are done these are the /ws connections it carries to that replica.
   */
  openConnectionsTo(apiUrl: string): number;
  stop(): Promise<void>;
}

/**
 * nginx.conf for one nginx holding the gateway and every static server, each of deploy/nginx/ as compose mounts it,
 * with only its addresses changed: the gateway listens on a loopback port, `server api:3000` becomes one line per
 * replica, and each static server listens on a port of its own with its root in `siteRoot/<app>`.
 */
function nginxConf(dir: string, siteRoot: string, ports: { gateway: number; api: number[]; apps: Map<string, number> }): string {
  const gateway = read('deploy/nginx/gateway.conf')
    .replace(/listen 80;/, `listen 127.0.0.1:${ports.gateway};`)
    .replace(/server api:3000([^;]*);/, (_, params: string) => ports.api.map((port) => `server 127.0.0.1:${port}${params};`).join('\n'));
  const staticConf = read('deploy/nginx/static.conf');
  const apps = [...ports.apps].map(([app, port]) => ({
    upstream: `upstream ${app} { server 127.0.0.1:${port}; }`,
    server: staticConf.replace(/listen 80;/, `listen 127.0.0.1:${port};`).replace(/root \S+;/, `root ${path.join(siteRoot, app)};`),
  }));
  return `
    # workers as root when the tests run as root, so they read a site in any folder (a nobody could not enter /root)
    ${process.getuid?.() === 0 ? 'user root;' : ''}
    pid ${dir}/nginx.pid;
    error_log stderr notice;
    events {}
    http {
      types { text/html html; application/javascript js; application/json json; text/css css; image/svg+xml svg; }
      default_type application/octet-stream;
      log_format upstreams '$status $upstream_addr $request';
      access_log ${dir}/access.log upstreams;
      ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `${kind}_temp_path ${dir}/${kind}-temp;`).join('\n')}
      ${apps.map((app) => app.upstream).join('\n')}
      ${apps.map((app) => app.server).join('\n')}
      ${gateway}
    }`;
}

/** Starts nginx in the foreground; resolves once its workers run (its listening sockets are open before them). */
async function startNginx(dir: string): Promise<ChildProcess> {
  const args = ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr'];
  const check = spawnSync(NGINX!, [...args, '-t'], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx refused the configuration:\n${check.stderr}`);
  const child = spawn(NGINX!, [...args, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk) => {
      log += String(chunk);
      if (log.includes('start worker process')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`nginx exited (${code}):\n${log}`)));
  });
  return child;
}

/**
 * The compose topology without containers: Debian's nginx runs deploy/nginx/gateway.conf in front of the given API
 * replicas, and deploy/nginx/static.conf once per app over `siteRoot` (a build output: a folder per app).
 */
export async function startGateway({
  apiUrls,
  siteRoot,
  port,
}: {
  apiUrls: string[];
  siteRoot: string;
  /** The gateway's port, when the replicas must know the site's origin before it starts. */
  port?: number;
}): Promise<Gateway> {
  if (!NGINX) throw new Error('nginx is not installed: apt-get install -y nginx (npm test installs it as root)');
  const dir = mkdtempSync(path.join(tmpdir(), 'cbh-gateway-'));
  mkdirSync(path.join(dir, 'snippets'));
  cpSync(path.join(ROOT, 'deploy/nginx/security-headers.conf'), path.join(dir, 'snippets/security-headers.conf'));
  const apps = new Map<string, number>();
  for (const app of SITE_APPS) apps.set(app, await freePort());
  const gatewayPort = port ?? (await freePort());
  const apiPorts = apiUrls.map((url) => Number(new URL(url).port));
  writeFileSync(path.join(dir, 'nginx.conf'), nginxConf(dir, siteRoot, { gateway: gatewayPort, api: apiPorts, apps }));
  const nginx = await startNginx(dir);
  return {
    url: `http://127.0.0.1:${gatewayPort}`,
    accessLog: () => {
      const file = path.join(dir, 'access.log');
      return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    },
    openConnectionsTo: (apiUrl) => {
      // the sockets of nginx's processes whose peer is the replica's port (ss names each socket's process)
      const port = new URL(apiUrl).port;
      const { stdout } = spawnSync('ss', ['-Htnp', 'state', 'established', `( dport = :${port} )`], { encoding: 'utf8' });
      return stdout.split('\n').filter((line) => line.includes('"nginx"')).length;
    },
    stop: async () => {
      if (nginx.exitCode === null) {
        const exited = new Promise((resolve) => nginx.once('exit', resolve));
        nginx.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
