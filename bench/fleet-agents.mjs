// What the instances of bench:fleet (fleet-ingest.mjs) send: reports of opossum breakers, each instance's on a stream of
// its own as the agent keeps one, or POSTed.
import WebSocket from 'ws';

function window(successes, failures) {
  return {
    successes,
    failures,
    timeouts: 0,
    rejections: 0,
    latencyHistogram: { boundsMs: [1, 5, 10, 50, 100, 500], counts: [0, successes, failures, 0, 0, 0, 0] },
    longestCallMs: successes + failures > 0 ? 9 : 0,
  };
}

/** One opossum breaker of a report, with a period of 20–39 calls and a few failures. */
export function breakerReport(name, state = 'CLOSED') {
  return {
    name,
    library: 'opossum',
    type: 'error-percentage',
    settings: { errorThresholdPercentage: 50, timeout: 3000, resetTimeout: 30000 },
    state,
    override: 'none',
    window: window(20 + Math.floor(Math.random() * 20), Math.floor(Math.random() * 3)),
    transitions: [],
  };
}

/** An instance's report of its breakers over a period of `periodMs`. */
export const reportOf = (service, instance, breakers, periodMs) => ({
  version: 1,
  service,
  instance,
  sentAt: new Date().toISOString(),
  periodMs,
  breakers,
});

/**
 * One instance's stream, opened at its first report: each report is answered before the instance's next is sent (a
 * period later), and carries its breakers' settings only until one has been taken on the connection, as an agent's
 * (again on a new connection after one closed).
 * `send` resolves with what `spread` reads of a response: ok, status, arrayBuffer.
 */
export function agentStream(url, token) {
  let socket = null;
  let opening = null;
  let settingsTaken = false;
  const answers = [];
  const open = () =>
    (opening ??= new Promise((resolve, reject) => {
      socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/agent/stream`, { headers: { authorization: `Bearer ${token}` } });
      socket.on('message', (raw) => answers.shift()?.resolve(JSON.parse(String(raw))));
      socket.on('close', () => {
        for (const waiting of answers.splice(0)) waiting.reject(new Error('stream closed'));
        opening = null;
        // a new connection has no memory of the settings sent on this one: its first report carries them again, as
        // the agent's does (a stream closed past the hub's capacity was followed by 400s for every report before)
        settingsTaken = false;
      });
      socket.once('open', resolve).once('error', reject);
    }));
  return {
    async send(body) {
      await open();
      if (settingsTaken) for (const breaker of body.breakers) delete breaker.settings;
      const answer = await new Promise((resolve, reject) => {
        answers.push({ resolve, reject });
        socket.send(JSON.stringify(body));
      });
      if (answer.status === 200) settingsTaken = true;
      return { ok: answer.status === 200, status: answer.status, arrayBuffer: async () => undefined };
    },
    close: () => socket?.close(),
  };
}
