import type { AgentReport, BreakerConfigView } from '@cbh/contracts';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import CircuitBreaker from 'opossum';
import WebSocket from 'ws';
import { connectToHub, createAgent, OpossumAdapter, type HubConnection, type WsClass } from '@cbh/agent';
import { serviceToken } from '../../../test/agent-reports';
import { apiForThisFile, eventually } from '../../../test/test-api';

// @cbh/agent's stream against the real hub (its API on PostgreSQL): reports on one socket, the hub's controls in its
// answers, each breaker's settings sent once per connection; and HTTP where the hub has no stream.
const started = apiForThisFile();
const quiet = { info: () => undefined, warn: () => undefined };

/** The ws client, recording every report it sends. */
function recordingWs(frames: AgentReport[]): WsClass {
  return class extends WebSocket {
    override send(data: string) {
      frames.push(JSON.parse(data) as AgentReport);
      super.send(data);
    }
  } as unknown as WsClass;
}

describe("the agent's stream to the hub", () => {
  const circuits: CircuitBreaker[] = [];
  let connection: HubConnection | undefined;
  afterEach(async () => {
    await connection?.stop();
    for (const circuit of circuits.splice(0)) circuit.shutdown();
  });

  const agentWith = (service: string) => {
    const circuit = new CircuitBreaker(async () => 'ok', { name: 'payments', errorThresholdPercentage: 40, resetTimeout: 30_000 });
    circuits.push(circuit);
    const agent = createAgent({ service, instance: `${service}-1` });
    agent.register(new OpossumAdapter(circuit));
    return { agent, circuit };
  };
  const breakerOf = async (service: string) => {
    const response = await started.api.call(`/api/circuit-breakers?source=agent&service=${service}`, { cookie: started.admin });
    return ((await response.json()) as BreakerConfigView[]).find((breaker) => breaker.name === 'payments');
  };

  it("reports on one socket, sends the settings once, and applies the hub's controls from its answers", async () => {
    const { agent, circuit } = agentWith('stream-agent');
    const frames: AgentReport[] = [];
    const token = await serviceToken(started.api, started.admin, 'stream-agent');
    connection = connectToHub(agent, { hubUrl: started.api.baseUrl, token, logger: quiet, webSocket: recordingWs(frames) });
    await eventually(async () => frames.length >= 3 && connection!.status().delivered >= 3, 10_000);
    expect(connection.status()).toMatchObject({ transport: 'stream', reachable: true });
    const breaker = (await breakerOf('stream-agent'))!;
    expect(breaker.librarySettings).toMatchObject({ errorThresholdPercentage: 40, resetTimeout: 30_000 });
    // the first report carries the settings; those after it, taken on the same connection, leave them out
    expect(frames[0]!.breakers[0]!.settings).toMatchObject({ errorThresholdPercentage: 40 });
    expect(frames.slice(1).every((frame) => frame.breakers[0]!.settings === undefined)).toBe(true);

    // an operator's Force open on the hub reaches the real breaker with the next answer
    const forced = await started.api.call(`/api/circuit-breakers/${breaker.id}/force-open`, { method: 'POST', cookie: started.admin });
    expect(forced.status).toBeLessThan(300);
    expect(await eventually(async () => circuit.opened, 10_000)).toBe(true);
  });

  it('sends the settings again on a new connection, after its socket closed', async () => {
    const { agent } = agentWith('stream-again');
    const frames: AgentReport[] = [];
    const sockets: WebSocket[] = [];
    const Recording = recordingWs(frames);
    const Ws = class extends (Recording as unknown as typeof WebSocket) {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        sockets.push(this);
      }
    } as unknown as WsClass;
    const token = await serviceToken(started.api, started.admin, 'stream-again');
    connection = connectToHub(agent, { hubUrl: started.api.baseUrl, token, logger: quiet, webSocket: Ws });
    await eventually(async () => connection!.status().delivered >= 2, 10_000);
    sockets[0]!.close(1001, 'going away');
    const before = frames.length;
    await eventually(async () => sockets.length === 2 && connection!.status().delivered >= before + 2, 10_000);
    const after = frames.slice(before);
    expect(after.find((frame) => frame.breakers[0]!.settings !== undefined)).toBeDefined();
  });

  it('reports over HTTP to a hub without a stream, and says how it reports', async () => {
    const { agent } = agentWith('no-stream');
    const posted: AgentReport[] = [];
    // a hub behind a proxy that does not pass upgrades: the upgrade is a plain request it does not know
    const hub = createServer((request, response) => {
      if (request.url !== '/api/agent/reports') return response.writeHead(404).end('{"message":"Not Found"}');
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        posted.push(JSON.parse(body) as AgentReport);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"version":1,"reportEveryMs":250,"controls":[]}');
      });
    });
    hub.listen(0, '127.0.0.1');
    await once(hub, 'listening');
    const logged: string[] = [];
    try {
      connection = connectToHub(agent, {
        hubUrl: `http://127.0.0.1:${(hub.address() as AddressInfo).port}`,
        token: 'cbh_sa_no_stream',
        logger: { info: (message) => logged.push(message), warn: (message) => logged.push(message) },
      });
      await eventually(async () => posted.length >= 3, 10_000);
      expect(connection.status()).toMatchObject({ transport: 'http', reachable: true });
      // every report POSTed carries its settings
      expect(posted.every((report) => report.breakers[0]!.settings !== undefined)).toBe(true);
      expect(logged).toEqual([
        "the hub answered the stream's upgrade with 404: reporting over HTTP, the stream is tried again in 5 minutes",
      ]);
    } finally {
      await connection?.stop();
      connection = undefined;
      hub.closeAllConnections();
      hub.close();
    }
  });

  it('takes a token the hub refuses on the stream for a failure, and keeps the breakers as they are', async () => {
    const { agent, circuit } = agentWith('stream-refused');
    const warnings: string[] = [];
    connection = connectToHub(agent, {
      hubUrl: started.api.baseUrl,
      token: 'cbh_sa_not_a_token',
      logger: { info: () => undefined, warn: (message) => warnings.push(message) },
    });
    await eventually(async () => connection!.status().failedReports >= 1, 10_000);
    expect(connection.status()).toMatchObject({ reachable: false, lastError: 'hub refused the token (401)', transport: 'stream' });
    expect(warnings[0]).toMatch(/^hub refused the token \(401\); the breakers keep their settings/);
    expect(circuit.closed).toBe(true);
  });
});
