// /ws fan-out: N signed-in clients connected to the production API; the time from a breaker transition
// (its timestamp) to each client receiving the stateChange, p50/p99/max over every delivery (goal p99 ≤ 100 ms).
// The same clients first measure the floor: a bare `ws` server (bench/ws-bare-server.mjs) sending a message of the
// same size to every socket, so the API's figure reads against what this machine allows.
// The clients live in worker threads (--workers, default 4): real clients are separate machines, and one thread
// reading 5,000 frames one after the other would measure its own queue, not the server's fan-out.
// The first --warm-up events (3) find code on both sides not yet compiled: their figures are printed, not counted.
// --profile also writes the API's CPU profile and prints its top frames.
// Usage: npm run build && node bench/ws-fanout.mjs [--clients 5000] [--events 20] [--workers 4] [--warm-up 3] [--profile]
import { fork } from 'node:child_process';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { connectClients } from './ws-clients.mjs';
import { benchLine, numberArg } from './report.mjs';
import { apiProfiling } from './cpu-profile.mjs';

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
        // the time is read at once; only the stateChange messages are parsed, as a client that needs no other would
        const now = Date.now();
        const text = String(data);
        if (text.startsWith('{"type":"stateChange"')) latencies.push(now - Date.parse(JSON.parse(text).data.at));
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
  const WARM_UP = numberArg('warm-up', 3);
  const BARE_PORT = 3392;

  /** Connects the clients to a server, fires the events one at a time, and returns every delivery's latency. */
  async function measure(label, url, cookie, fire) {
    const workers = [];
    const latencies = [];
    const warmUp = [];
    try {
      let connected = 0;
      await Promise.all(
        Array.from({ length: WORKERS }, (_, index) => {
          const count = Math.floor(CLIENTS / WORKERS) + (index < CLIENTS % WORKERS ? 1 : 0);
          const worker = new Worker(new URL(import.meta.url), { workerData: { url, cookie, count } });
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
      console.log(`${label}: ${connected} clients connected, in ${WORKERS} worker threads`);
      const perEvent = [];
      for (let event = 0; event < WARM_UP + EVENTS; event++) {
        const target = latencies.length + CLIENTS;
        await fire(event);
        const deadline = Date.now() + 10_000;
        while (latencies.length < target && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
        perEvent.push(Math.max(...latencies.slice(target - CLIENTS)));
        // the first events find code on both sides not yet compiled: reported, not counted
        if (event === WARM_UP - 1) warmUp.push(...latencies.splice(0));
      }
      console.log(`${label}, each event's slowest delivery (ms), the ${WARM_UP} warm-up events first: ${perEvent.join(' ')}`);
    } finally {
      for (const worker of workers) worker.postMessage('stop');
      await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve))));
    }
    latencies.sort((a, b) => a - b);
    const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
    console.log(`${label}: ${EVENTS} events × ${CLIENTS} clients: ${latencies.length} of ${EVENTS * CLIENTS} deliveries`);
    console.log(`${label}: event → client latency: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${latencies.at(-1)} ms`);
    return pct(0.99);
  }

  const bare = fork(new URL('./ws-bare-server.mjs', import.meta.url), [String(BARE_PORT)], { stdio: 'inherit' });
  let floor;
  try {
    await new Promise((resolve, reject) => bare.once('message', resolve).once('error', reject));
    const bareUrl = `http://127.0.0.1:${BARE_PORT}`;
    floor = await measure('bare ws', bareUrl, '', () => fetch(`${bareUrl}/event`, { method: 'POST' }));
  } finally {
    bare.kill();
  }

  const profiling = apiProfiling();
  const api = await startBenchApi({ nodeArgs: profiling.nodeArgs });
  let p99;
  try {
    p99 = await measure('API', api.url, api.cookie, (event) =>
      fetch(`${api.url}/api/circuit-breakers/1/${event % 2 === 0 ? 'force-open' : 'reset'}`, {
        method: 'POST',
        headers: { cookie: api.cookie },
      }),
    );
  } finally {
    await api.stop();
  }
  console.log(`API p99 ${p99} ms against the bare server's ${floor} ms — ${p99 <= 100 ? 'OK' : 'MISSED'} (goal p99 ≤ 100 ms)`);
  benchLine(`/ws fan-out p99 of a bare ws server (the floor), ${CLIENTS} clients`, `${floor} ms`, '—', null);
  benchLine(`/ws fan-out p99, ${CLIENTS} clients`, `${p99} ms`, '≤ 100 ms', p99 <= 100);
  profiling.report();
}
