// /ws fan-out: N signed-in clients connected to the production API; the time from a breaker transition
// (its timestamp) to each client receiving the stateChange, p50/p99/max over every delivery (goal p99 ≤ 100 ms).
// The clients live in worker threads (--workers, default 4): real clients are separate machines, and one thread
// reading 5,000 frames one after the other would measure its own queue, not the server's fan-out.
// Usage: npm run build && node bench/ws-fanout.mjs [--clients 5000] [--events 20] [--workers 4]
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { connectClients } from './ws-clients.mjs';
import { benchLine, numberArg } from './report.mjs';

if (!isMainThread) {
  // a worker: connect its share of the clients, then report each stateChange's delay until told to stop
  const { url, cookie, count } = workerData;
  const sockets = [];
  let latencies = [];
  await connectClients(
    url,
    cookie,
    count,
    (socket) =>
      socket.on('message', (data) => {
        const message = JSON.parse(String(data));
        if (message.type === 'stateChange') latencies.push(Date.now() - Date.parse(message.data.at));
      }),
    sockets,
  );
  parentPort.postMessage({ connected: sockets.length });
  const flush = setInterval(() => {
    if (latencies.length === 0) return;
    parentPort.postMessage({ latencies });
    latencies = [];
  }, 20);
  parentPort.on('message', () => {
    clearInterval(flush);
    if (latencies.length) parentPort.postMessage({ latencies });
    for (const socket of sockets) socket.terminate();
    parentPort.close();
  });
} else {
  const { startBenchApi } = await import('./api-process.mjs');
  const CLIENTS = numberArg('clients', 5000);
  const EVENTS = numberArg('events', 20);
  const WORKERS = Math.max(1, Math.min(numberArg('workers', 4), CLIENTS));

  const api = await startBenchApi();
  const workers = [];
  try {
    const latencies = [];
    let connected = 0;
    const perEvent = [];
    await Promise.all(
      Array.from({ length: WORKERS }, (_, index) => {
        const count = Math.floor(CLIENTS / WORKERS) + (index < CLIENTS % WORKERS ? 1 : 0);
        const worker = new Worker(new URL(import.meta.url), { workerData: { url: api.url, cookie: api.cookie, count } });
        workers.push(worker);
        return new Promise((resolve, reject) => {
          worker.on('error', reject);
          worker.on('message', (message) => {
            if (message.latencies) latencies.push(...message.latencies);
            if (message.connected !== undefined) resolve((connected += message.connected));
          });
        });
      }),
    );
    console.log(`${connected} clients connected, in ${WORKERS} worker threads`);
    for (let event = 0; event < EVENTS; event++) {
      const action = event % 2 === 0 ? 'force-open' : 'reset';
      const target = latencies.length + CLIENTS;
      await fetch(`${api.url}/api/circuit-breakers/1/${action}`, { method: 'POST', headers: { cookie: api.cookie } });
      const deadline = Date.now() + 10_000;
      while (latencies.length < target && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      perEvent.push(Math.max(...latencies.slice(target - CLIENTS)));
    }
    if (process.argv.includes('--per-event')) console.log(perEvent.join(' '));
    latencies.sort((a, b) => a - b);
    const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
    const p99 = pct(0.99);
    console.log(`${EVENTS} transitions × ${CLIENTS} clients: ${latencies.length} of ${EVENTS * CLIENTS} deliveries`);
    console.log(
      `event → client latency: p50 ${pct(0.5)} ms, p99 ${p99} ms, max ${latencies.at(-1)} ms — ${p99 <= 100 ? 'OK' : 'MISSED'} (goal p99 ≤ 100 ms)`,
    );
    benchLine(`/ws fan-out p99, ${CLIENTS} clients`, `${p99} ms`, '≤ 100 ms', p99 <= 100);
  } finally {
    for (const worker of workers) worker.postMessage('stop');
    await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve))));
    api.stop();
  }
}
