import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../tools/testing/free-port.mjs';
import { REMOTE_FOLDERS } from '../tools/testing/site-layout';
import { read, ROOT } from './k8s.test-kit';

/**
 * The static site's image: deploy/site.Dockerfile read for its base, its user and what it copies where, then the
 * image's nginx configuration (deploy/site.nginx.conf) run by Debian's nginx over the layout the Dockerfile makes.
 */
const DOCKERFILE = read('deploy/site.Dockerfile');
/** The image's COPY lines: source in the build context → path in the image. */
const COPIES = [...DOCKERFILE.matchAll(/^COPY (\S+) (\S+)$/gm)].map(([, source, target]) => ({ source: source!, target: target! }));
const HTML = '/usr/share/nginx/html';

describe('deploy/site.Dockerfile', () => {
  it('starts from a pinned nginx and runs as its unprivileged user', () => {
    expect(DOCKERFILE).toMatch(/^FROM nginx:\d+\.\d+\.\d+-alpine$/m);
    expect(DOCKERFILE).toMatch(/^USER 101$/m);
    const site = read('deploy/k8s/base/site-deployment.yaml');
    expect(site).toContain('runAsUser: 101');
    expect(site).toContain('containerPort: 8080');
    expect(read('deploy/site.nginx.conf')).toMatch(/^\s*listen 8080;$/m);
  });

  it('puts the shell at / and each remote of remotes.json at /remotes/<folder>/, beside the nginx configuration', () => {
    expect(COPIES).toEqual(
      expect.arrayContaining([
        { source: 'deploy/site.nginx.conf', target: '/etc/nginx/nginx.conf' },
        { source: 'deploy/nginx/security-headers.conf', target: '/etc/nginx/snippets/security-headers.conf' },
        { source: 'dist/shell/', target: `${HTML}/` },
        { source: 'remotes.json', target: `${HTML}/remotes.json` },
        ...REMOTE_FOLDERS.map((folder) => ({ source: `dist/${folder}/`, target: `${HTML}/remotes/${folder}/` })),
      ]),
    );
    expect(COPIES.filter(({ source }) => source.startsWith('dist/mfe-')).length).toBe(REMOTE_FOLDERS.length);
  });

  it('sends the builder what it copies, although the repository’s .dockerignore keeps dist/ out', () => {
    const patterns = read('deploy/site.Dockerfile.dockerignore')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'));
    const pattern = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`);
    const included = (file: string) =>
      patterns.reduce((kept, line) => (pattern(line.replace(/^!/, '')).test(file) ? line.startsWith('!') : kept), true);
    for (const { source } of COPIES) expect([source, included(source.replace(/\/$/, ''))]).toEqual([source, true]);
    expect(included('api/src/main.ts')).toBe(false);
    expect(included('dist/api')).toBe(false);
  });
});

const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((candidate) => existsSync(candidate)) ?? null;
const SKIPPED = 'skipped: nginx is not installed (apt-get install -y nginx; npm test installs it as root)';
if (!NGINX) console.warn(`deploy/site-image.spec.ts: the site's nginx test ${SKIPPED}`);

/** `text` with `from` replaced, which must be there: the test must not run the image's paths by mistake. */
function replaced(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`deploy/site.nginx.conf no longer has ${from}: update this test`);
  return text.replaceAll(from, to);
}

(NGINX ? describe : describe.skip)(`the site image’s nginx, run over the image’s layout${NGINX ? '' : ` — ${SKIPPED}`}`, () => {
  let dir: string;
  let site: string;
  let nginx: ReturnType<typeof spawn>;
  let origin: string;
  const headers = [...read('deploy/nginx/security-headers.conf').matchAll(/^add_header (\S+) "(.*)" always;$/gm)].map(([, name, value]) => [
    name!.toLowerCase(),
    value!,
  ]);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cbh-site-image-'));
    // a build in small: the shell's page and a hashed chunk (with its .gz), each remote's entry and a hashed chunk
    const build = path.join(dir, 'context');
    const files: Record<string, string> = {
      'dist/shell/index.html': '<!doctype html><title>Circuit Breaker Hub</title>',
      'dist/shell/main.0123456789.js': 'console.log("shell")',
      'dist/shell/main.0123456789.js.gz': 'gzipped',
    };
    for (const folder of REMOTE_FOLDERS) {
      files[`dist/${folder}/remoteEntry.js`] = `var ${folder.replace('-', '_')};`;
      files[`dist/${folder}/749.abcdef0123.js`] = 'console.log("chunk")';
    }
    for (const [file, body] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(build, file)), { recursive: true });
      writeFileSync(path.join(build, file), body);
    }
    cpSync(path.join(ROOT, 'remotes.json'), path.join(build, 'remotes.json'));
    // the files where the Dockerfile puts them
    site = path.join(dir, 'html');
    for (const { source, target } of COPIES.filter((copy) => copy.target.startsWith(HTML))) {
      cpSync(path.join(build, source), path.join(site, target.slice(HTML.length)), { recursive: true });
    }
    const port = await freePort();
    let conf = read('deploy/site.nginx.conf');
    conf = replaced(conf, 'listen 8080;', `listen 127.0.0.1:${port};`);
    conf = replaced(conf, '/tmp/', `${dir}/`);
    conf = replaced(conf, `root ${HTML};`, `root ${site};`);
    conf = replaced(conf, '/etc/nginx/snippets/security-headers.conf', path.join(ROOT, 'deploy/nginx/security-headers.conf'));
    conf = replaced(conf, 'access_log /dev/stdout;', 'access_log off;');
    // workers as root when the tests run as root, so they read a site in any folder
    if (process.getuid?.() === 0) conf = `user root;\n${conf}`;
    writeFileSync(path.join(dir, 'nginx.conf'), conf);
    const args = ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr'];
    const check = spawnSync(NGINX!, [...args, '-t'], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`nginx refused deploy/site.nginx.conf:\n${check.stderr}`);
    nginx = spawn(NGINX!, [...args, '-g', 'daemon off;'], { stdio: 'ignore' });
    origin = `http://127.0.0.1:${port}`;
    for (let attempt = 0; ; attempt++) {
      try {
        await fetch(origin);
        break;
      } catch (error) {
        if (attempt === 100 || nginx.exitCode !== null) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });

  afterAll(async () => {
    if (nginx?.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['the shell’s page', '/', 200, 'no-cache', 'Circuit Breaker Hub'],
    ['the shell’s page for a route of the browser’s', '/dashboard/breakers', 200, 'no-cache', 'Circuit Breaker Hub'],
    ['the shell’s hashed chunk', '/main.0123456789.js', 200, 'public, max-age=31536000, immutable', 'console.log("shell")'],
    ['the deployment’s remotes.json', '/remotes.json', 200, 'no-cache', '"remotes"'],
    ['a remote’s entry', '/remotes/mfe-dashboard/remoteEntry.js', 200, 'no-cache', 'var mfe_dashboard;'],
    ['a remote’s hashed chunk', '/remotes/mfe-patterns/749.abcdef0123.js', 200, 'public, max-age=31536000, immutable', 'chunk'],
    // add_header without `always` leaves error answers alone; the security headers have it
    ['a remote’s missing file, as a 404', '/remotes/mfe-users/missing.js', 404, null, ''],
  ])('serves %s with its cache rule and the site’s security headers', async (_, url, status, cacheControl, body) => {
    const response = await fetch(`${origin}${url}`, { headers: { 'accept-encoding': 'identity' } });
    expect(response.status).toBe(status);
    expect(response.headers.get('cache-control')).toBe(cacheControl);
    for (const [name, value] of headers) expect([name, response.headers.get(name!)]).toEqual([name, value]);
    expect(await response.text()).toContain(body);
  });

  it('sends the build’s .gz to a browser that takes gzip', async () => {
    const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(`${origin}/main.0123456789.js`, { headers: { 'accept-encoding': 'gzip' } }, resolve).on('error', reject),
    );
    const body = await new Promise<string>((resolve) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
    });
    // the file the build compressed, not one compressed now
    expect([response.statusCode, body]).toEqual([200, 'gzipped']);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toBe('Accept-Encoding');
  });
});
