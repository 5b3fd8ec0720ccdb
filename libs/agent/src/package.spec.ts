import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A service outside the repository: no node_modules above it, so nothing of the monorepo can be found from it. */
const SERVICE = `
const { createAgent, CbhAdapter, connectToHub } = require('./agent/src/index.js');
const agent = createAgent({ service: 'ledger-service', instance: 'ledger-1' });
const ledger = new CbhAdapter('ledger', { type: 'simple', failureThreshold: 5, timeout: 30000, recoveryTime: 60000, successThreshold: 3 });
agent.register(ledger);
// the service's own work, which keeps it running until the first report is answered; the connection is never
// stopped, and must not keep the process alive once that work is done
const work = setInterval(() => undefined, 1000);
ledger.execute(async () => 'ok').then(() => {
  const connection = connectToHub(agent, {
    hubUrl: process.argv[2],
    token: 'cbh_sa_ledger',
    fetch: (...args) => fetch(...args).finally(() => clearInterval(work)),
    // what it logs goes to stderr: stdout is its status at exit
    logger: { info: console.error, warn: console.error },
  });
  process.on('exit', () => console.log(JSON.stringify(connection.status())));
});
`;

describe('the package built for services outside this repository', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'cbh-agent-build-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('needs nothing of this repository at run time, reports to the hub, and does not keep the service alive', async () => {
    await run(process.execPath, [path.join(__dirname, '../packaging/build.mjs'), out]);
    const files = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(js|d\.ts)$/.test(file));
    expect(files).toContain(path.join('agent', 'src', 'index.d.ts'));
    for (const file of files) expect(readFileSync(path.join(out, file), 'utf8')).not.toMatch(/["']@cbh\//);

    const reports: unknown[] = [];
    const hub = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        reports.push({ authorization: request.headers.authorization, report: JSON.parse(body) });
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ version: 1, reportEveryMs: 1000, controls: [] }));
      });
    });
    hub.listen(0, '127.0.0.1');
    await once(hub, 'listening');
    try {
      writeFileSync(path.join(out, 'service.cjs'), SERVICE);
      const { stdout } = await run(process.execPath, ['service.cjs', `http://127.0.0.1:${(hub.address() as AddressInfo).port}`], {
        cwd: out,
        timeout: 10_000,
      });
      // without the ws package (an optional peer) it reports over HTTP
      expect(JSON.parse(stdout)).toMatchObject({ reachable: true, delivered: 1, transport: 'http' });
      expect(reports).toEqual([
        {
          authorization: 'Bearer cbh_sa_ledger',
          report: expect.objectContaining({
            service: 'ledger-service',
            breakers: [expect.objectContaining({ name: 'ledger', library: 'cbh' })],
          }),
        },
      ]);
    } finally {
      hub.closeAllConnections();
      hub.close();
    }
  });
});
