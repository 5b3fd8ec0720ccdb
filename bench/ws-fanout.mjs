// /ws fan-out: N signed-in clients connected to the production API; the time from a breaker transition
// (its timestamp) to each client receiving the stateChange, p50/p99/max over every delivery (goal p99 ≤ 100 ms).
// Usage: npm run build && node bench/ws-fanout.mjs [--clients 2000] [--events 20]
import { startBenchApi } from './api-process.mjs';
import { connectClients } from './ws-clients.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const CLIENTS = arg('clients', 2000);
const EVENTS = arg('events', 20);

const api = await startBenchApi();
const sockets = [];
try {
  const latencies = [];
  let received = 0;
  await connectClients(
    api.url,
    api.cookie,
    CLIENTS,
    (socket) =>
      socket.on('message', (data) => {
        const message = JSON.parse(String(data));
        if (message.type !== 'stateChange') return;
        latencies.push(Date.now() - Date.parse(message.data.at));
        received++;
      }),
    sockets,
  );
  console.log(`${sockets.length} clients connected`);
  for (let event = 0; event < EVENTS; event++) {
    const action = event % 2 === 0 ? 'force-open' : 'reset';
    const target = received + CLIENTS;
    await fetch(`${api.url}/api/circuit-breakers/1/${action}`, { method: 'POST', headers: { cookie: api.cookie } });
    const deadline = Date.now() + 10_000;
    while (received < target && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  console.log(`${EVENTS} transitions × ${CLIENTS} clients: ${latencies.length} of ${EVENTS * CLIENTS} deliveries`);
  console.log(
    `event → client latency: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${latencies.at(-1)} ms — ${pct(0.99) <= 100 ? 'OK' : 'MISSED'} (goal p99 ≤ 100 ms)`,
  );
} finally {
  for (const socket of sockets) socket.terminate();
  api.stop();
}
