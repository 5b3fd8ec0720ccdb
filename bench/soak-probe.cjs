// Preloaded into the API process by bench/soak.mjs: every SOAK_SAMPLE_MS it reports its memory, its event-loop
// delay p99 over the interval and its open handles to the benchmark over IPC.
const { monitorEventLoopDelay } = require('node:perf_hooks');

if (process.send) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  setInterval(
    () => {
      const memory = process.memoryUsage();
      process.send({
        rss: memory.rss,
        heapUsed: memory.heapUsed,
        loopP99Ms: delay.percentile(99) / 1e6,
        handles: process._getActiveHandles().length,
      });
      delay.reset();
    },
    Number(process.env.SOAK_SAMPLE_MS ?? 60_000),
  ).unref();
}
