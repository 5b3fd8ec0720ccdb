// /ws fan-out, and how its cost grows: signed-in clients connected to the production API, measured at each of
// --sizes (1,000, 5,000 and 10,000 clients; `--sizes 5000` measures one). At each size: the time from a breaker
// transition (its timestamp) to each client receiving the stateChange, p50/p99/max over every delivery; the server's
// CPU per delivery (its CPU over the counted events, less what it spends meanwhile when no event is sent); that idle
// CPU per connected client per second (for the API, the metricsUpdate every client hears, less its idle CPU with no
// client); and its resident memory.
// At each size the same number of clients first measure the floor: a bare `ws` server (bench/ws-bare-server.mjs)
// writing the same bytes a transition sends each client (a stateChange and a configUpdated, in one write) to every
// socket, so the API's figures read against what this machine allows. Both servers run throughout, each idle while
// the other is measured, so that what else the machine runs meanwhile weighs on both alike. The goal, checked at the
// middle size (5,000): the API's p99 at most 1.1× the bare server's. Each size also prints its per-unit costs as a
// BENCH line (p99 per 1,000 clients, CPU per delivery, the ratio to the bare server's p99), so that a step that grows
// faster than the clients shows.
// The clients live in worker threads (--workers, default 4): real clients are separate machines, and one thread
// reading thousands of frames one after the other would measure its own queue, not the server's fan-out.
// The first --warm-up events (3) at each size find code on both sides not yet compiled, or sockets just opened: their
// figures are printed, not counted. --profile also writes the API's CPU profile and prints its top frames.
// Usage: npm run build && node bench/ws-fanout.mjs [--sizes 1000,5000,10000] [--events 20] [--workers 4] [--warm-up 3]
//   [--idle-seconds 3] [--profile]
import { fork } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { connectClients } from './ws-clients.mjs';
import { benchLine, goalSize, numberArg, rssMiB, sizesArg, withRetries } from './report.mjs';
import { apiProfiling } from './cpu-profile.mjs';

if (!isMainThread) {
  // a worker: connects clients as told, reports each stateChange's delay and the bytes of the live messages it reads
  const { url, cookie } = workerData;
  const sockets = [];
  let latencies = [];
  let liveBytes = 0;
  const report = () => {
    if (latencies.length === 0 && liveBytes === 0) return;
    parentPort.postMessage({ latencies, liveBytes });
    latencies = [];
    liveBytes = 0;
  };
  const flush = setInterval(report, 20);
  parentPort.on('message', async (message) => {
    if (message !== 'stop') {
      await connectClients(
        url,
        cookie,
        message.connect,
        (socket) =>
          socket.on('message', (data) => {
            // the time is read at once; only the stateChange messages are parsed, as a client that needs no other would
            const now = Date.now();
            const text = String(data);
            if (text.startsWith('{"type":"metricsUpdate"')) return;
            liveBytes += data.length;
            if (text.startsWith('{"type":"stateChange"')) latencies.push(now - Date.parse(JSON.parse(text).data.at));
          }),
        sockets,
      );
      parentPort.postMessage({ connected: sockets.length });
      return;
    }
    clearInterval(flush);
    report();
    for (const socket of sockets) socket.terminate();
    parentPort.close();
  });
} else {
  const { cpuSeconds, startBenchApi } = await import('./api-process.mjs');
  const SIZES = process.argv.includes('--clients') ? [numberArg('clients', 5000)] : sizesArg([1000, 5000, 10000]);
  const GOAL_SIZE = goalSize(SIZES);
  const EVENTS = numberArg('events', 20);
  const WORKERS = Math.max(1, Math.min(numberArg('workers', 4), SIZES[0]));
  const WARM_UP = numberArg('warm-up', 3);
  const IDLE_SECONDS = numberArg('idle-seconds', 3);
  const BARE_PORT = 3392;

  /** The server's CPU seconds per second over `seconds` with nothing sent but what it sends by itself. */
  async function idleRate(pid, seconds) {
    const before = cpuSeconds(pid);
    await sleep(seconds * 1000);
    return (cpuSeconds(pid) - before) / seconds;
  }

  /**
   * Connects `size` clients to a server (label, url, cookie, pid: its process, fire: sends an event, base: its CPU per
   * second with no client), fires the events one at a time, closes the clients, and returns the figures.
   */
  async function measure({ label, url, cookie, pid, fire, base }, size) {
    const workers = [];
    let latencies = [];
    let liveBytes = 0;
    let result;
    try {
      const counts = await Promise.all(
        Array.from({ length: WORKERS }, (_, index) => {
          const worker = new Worker(new URL(import.meta.url), { workerData: { url, cookie } });
          workers.push(worker);
          return new Promise((resolve, reject) => {
            worker.on('error', reject);
            worker.on('message', (message) => {
              if (message.latencies) latencies.push(...message.latencies);
              if (message.liveBytes) liveBytes += message.liveBytes;
              if (message.connected !== undefined) resolve(message.connected);
            });
            worker.postMessage({ connect: Math.floor(size / WORKERS) + (index < size % WORKERS ? 1 : 0) });
          });
        }),
      );
      const connected = counts.reduce((a, b) => a + b, 0);
      await sleep(1000); // the connections' own work done
      const idle = await idleRate(pid, IDLE_SECONDS);
      const perEvent = [];
      let counted = null;
      for (let event = 0; event < WARM_UP + EVENTS; event++) {
        if (event === WARM_UP) {
          // the first events find code not yet compiled, or sockets just opened: reported, not counted
          latencies = [];
          liveBytes = 0;
          counted = { cpu: cpuSeconds(pid), at: performance.now() };
        }
        const target = latencies.length + size;
        await fire();
        const deadline = Date.now() + 10_000;
        while (latencies.length < target && Date.now() < deadline) await sleep(5);
        perEvent.push(Math.max(...latencies.slice(target - size)));
      }
      await sleep(50); // the last bytes counted
      const cpu = cpuSeconds(pid) - counted.cpu - idle * ((performance.now() - counted.at) / 1000);
      const sorted = [...latencies].sort((a, b) => a - b);
      const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
      result = {
        size,
        p50: pct(0.5),
        p99: pct(0.99),
        max: sorted.at(-1),
        cpuPerDeliveryUs: (cpu * 1e6) / Math.max(1, sorted.length),
        idlePerClientUs: ((idle - base) * 1e6) / size,
        bytesPerDelivery: liveBytes / Math.max(1, sorted.length),
        rss: rssMiB(pid),
      };
      console.log(
        `${label}, ${connected} clients in ${WORKERS} worker threads, each event's slowest delivery (ms), the ${WARM_UP} warm-up events first: ${perEvent.join(' ')}`,
      );
      console.log(
        `${label}, ${size} clients: ${sorted.length} of ${EVENTS * size} deliveries of ${result.bytesPerDelivery.toFixed(0)} bytes; ` +
          `latency p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms; CPU ${result.cpuPerDeliveryUs.toFixed(1)} µs per delivery, ` +
          `idle ${result.idlePerClientUs.toFixed(1)} µs per client per second; RSS ${result.rss.toFixed(0)} MiB`,
      );
    } finally {
      for (const worker of workers) worker.postMessage('stop');
      await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve))));
    }
    await sleep(1000); // the server has let the clients go
    return result;
  }

  // Both servers run throughout, each idle while the other is measured: at each size the bare server and then the
  // API, a minute apart at most, so that what else the machine runs meanwhile weighs on both alike.
  const bare = fork(new URL('./ws-bare-server.mjs', import.meta.url), [String(BARE_PORT)], { stdio: 'inherit' });
  // a profile of its own for each attempt: the report reads the one profile in its directory
  let profiling;
  let api;
  const floor = [];
  const results = [];
  try {
    await new Promise((resolve, reject) => bare.once('message', resolve).once('error', reject));
    api = await withRetries(() => {
      profiling = apiProfiling();
      return startBenchApi({ nodeArgs: profiling.nodeArgs });
    });
    const bareUrl = `http://127.0.0.1:${BARE_PORT}`;
    const bareServer = {
      label: 'bare ws',
      url: bareUrl,
      cookie: '',
      pid: bare.pid,
      fire: () => fetch(`${bareUrl}/event`, { method: 'POST' }),
    };
    /** Events fired so far: they alternate between force-open and reset, each a transition. */
    let fired = 0;
    const apiServer = {
      label: 'API',
      url: api.url,
      cookie: api.cookie,
      pid: api.process.pid,
      fire: () =>
        fetch(`${api.url}/api/circuit-breakers/1/${fired++ % 2 === 0 ? 'force-open' : 'reset'}`, {
          method: 'POST',
          headers: { cookie: api.cookie },
        }),
    };
    bareServer.base = await idleRate(bare.pid, IDLE_SECONDS);
    apiServer.base = await idleRate(api.process.pid, IDLE_SECONDS);
    for (const size of SIZES) {
      floor.push(await measure(bareServer, size));
      results.push(await measure(apiServer, size));
    }
  } finally {
    bare.kill();
    await api?.stop();
  }
  console.log(
    `clients   p99 API / bare   ratio   p99 per 1,000 clients   CPU per delivery API / bare   idle CPU per client per s   RSS API`,
  );
  for (const [index, result] of results.entries()) {
    const bareResult = floor[index];
    const ratio = result.p99 / bareResult.p99;
    console.log(
      `${String(result.size).padStart(7)}   ${`${result.p99} / ${bareResult.p99} ms`.padStart(14)}   ${ratio.toFixed(2).padStart(5)}×   ` +
        `${`${((1000 * result.p99) / result.size).toFixed(1)} ms`.padStart(21)}   ${`${result.cpuPerDeliveryUs.toFixed(1)} / ${bareResult.cpuPerDeliveryUs.toFixed(1)} µs`.padStart(27)}   ` +
        `${`${result.idlePerClientUs.toFixed(1)} µs`.padStart(25)}   ${result.rss.toFixed(0)} MiB`,
    );
    benchLine(
      `/ws fan-out at ${result.size} clients: p99 per 1,000 clients, API CPU per delivery, p99 / bare ws server's`,
      `${((1000 * result.p99) / result.size).toFixed(1)} ms, ${result.cpuPerDeliveryUs.toFixed(1)} µs, ${ratio.toFixed(2)}×`,
      'printed',
      true,
    );
  }
  const atGoal = results.find((result) => result.size === GOAL_SIZE);
  const floorAtGoal = floor.find((result) => result.size === GOAL_SIZE);
  const ratio = atGoal.p99 / floorAtGoal.p99;
  console.log(
    `API p99 ${atGoal.p99} ms against the bare server's ${floorAtGoal.p99} ms at ${GOAL_SIZE} clients: ${ratio.toFixed(2)}× — ${ratio <= 1.1 ? 'OK' : 'MISSED'} (goal ≤ 1.1×)`,
  );
  benchLine(`/ws fan-out p99 of a bare ws server (the floor), ${GOAL_SIZE} clients`, `${floorAtGoal.p99} ms`, '—', null);
  benchLine(
    `/ws fan-out p99 / the bare ws server's, ${GOAL_SIZE} clients`,
    `${ratio.toFixed(2)}× (${atGoal.p99} ms)`,
    '≤ 1.1×',
    ratio <= 1.1,
  );
  profiling.report();
}
