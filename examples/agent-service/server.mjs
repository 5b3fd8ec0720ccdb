// A small service with two opossum breakers around a downstream call, reported to the hub by @cbh/agent.
// Usage: CBH_HUB_URL=http://127.0.0.1:3000 CBH_AGENT_TOKEN=cbh_… SERVICE_NAME=checkout node examples/agent-service/server.mjs
// (see README.md for every variable and route)
import { createServer } from 'node:http';
import os from 'node:os';
import CircuitBreaker from 'opossum';

const agentLib = await import('@cbh/agent').catch((error) => {
  console.error(`@cbh/agent could not be loaded; in the repository, build it first with \`npm run build:agent\` (${error.message})`);
  process.exit(1);
});
const { connectToHub, createAgent, isInjectedFault, OpossumAdapter } = agentLib;

const env = process.env;
const service = env.SERVICE_NAME || 'agent-example';
const instance = env.INSTANCE || `${os.hostname()}-${process.pid}`;
let failPercent = percent(env.DOWNSTREAM_FAIL ?? '0');
if (failPercent === null) {
  console.error('DOWNSTREAM_FAIL must be a percentage from 0 to 100');
  process.exit(1);
}

function percent(text) {
  const value = Number(text);
  return text !== '' && Number.isFinite(value) && value >= 0 && value <= 100 ? value : null;
}

/** The downstream service: a few milliseconds, failing as often as DOWNSTREAM_FAIL (or POST /fail) says. */
async function downstream(name) {
  await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 8));
  if (Math.random() * 100 < failPercent) throw new Error(`${name} downstream failed`);
  return `${name} ok`;
}

// drills' faults hurt real calls, so the service opts in: CBH_ALLOW_FAULTS=1 (else each is refused, and the hub told)
const allowFaults = env.CBH_ALLOW_FAULTS === '1';
const agent = createAgent({ service, instance, allowFaults });
const adapters = new Map();
for (const name of ['payments', 'inventory']) {
  const circuit = new CircuitBreaker(() => downstream(name), {
    name,
    timeout: 1000,
    errorThresholdPercentage: 50,
    resetTimeout: 10_000,
    volumeThreshold: 5,
  });
  const adapter = new OpossumAdapter(circuit);
  agent.register(adapter);
  adapters.set(name, adapter);
}

const logger = { info: (message) => console.log(`[agent] ${message}`), warn: (message) => console.warn(`[agent] ${message}`) };
const connection = env.CBH_HUB_URL ? connectToHub(agent, { hubUrl: env.CBH_HUB_URL, token: env.CBH_AGENT_TOKEN ?? '', logger }) : null;
if (!connection) console.log('[agent] no CBH_HUB_URL: the breakers run on their own, reported nowhere');

function send(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const call = /^\/call\/([^/]+)$/.exec(url.pathname);
  if (request.method === 'GET' && call) {
    const adapter = adapters.get(decodeURIComponent(call[1]));
    if (!adapter) return send(response, 404, { ok: false, error: `no breaker named ${call[1]}` });
    try {
      await adapter.circuit.fire();
      return send(response, 200, { ok: true, state: adapter.state() });
    } catch (error) {
      return send(response, 503, { ok: false, state: adapter.state(), error: error.message, injected: isInjectedFault(error) });
    }
  }
  if (request.method === 'POST' && url.pathname === '/fail') {
    const value = percent(url.searchParams.get('percent') ?? '');
    if (value === null) return send(response, 400, { ok: false, error: 'percent must be a number from 0 to 100' });
    failPercent = value;
    return send(response, 200, { ok: true, failPercent });
  }
  if (request.method === 'GET' && url.pathname === '/health') {
    const faults = { allowed: allowFaults, active: agent.activeFaults() };
    const breakers = [...adapters].map(([name, adapter]) => ({ name, state: adapter.state(), settings: adapter.settings() }));
    return send(response, 200, { ok: true, service, instance, failPercent, faults, breakers, hub: connection?.status() ?? null });
  }
  send(response, 404, { ok: false, error: 'not found' });
});

server.on('error', (error) => {
  console.error(`cannot listen: ${error.message}`);
  process.exit(1);
});
server.listen(Number(env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});

/** Stops taking calls, sends the hub the last period, and ends. */
async function shutdown() {
  server.close();
  server.closeAllConnections();
  await connection?.stop();
  for (const adapter of adapters.values()) adapter.circuit.shutdown();
  process.exit(0);
}
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
