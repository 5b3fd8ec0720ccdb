// What the long tasks of a page load are made of, from a Chrome trace: for each main-thread task over 50 ms, its
// work (a script evaluated, a function called, a style or layout pass, a parse) with the script's URL and time,
// five levels down, the three heaviest pieces of at least 2 ms at each. `npm run bench:vitals -- --trace DIR` records one
// cold load of every route into DIR and prints this beside the table; a trace also opens in Chrome's Performance panel.
import { readFileSync } from 'node:fs';

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'toplevel',
  'v8',
  'v8.execute',
  'blink.user_timing',
  'disabled-by-default-v8.cpu_profiler',
];

/** Loads `url` in a new page of `context` while Chrome records a trace into `file`; resolves once `ready` holds. */
export async function traceLoad(browser, context, url, file, ready, preparePage = async () => {}) {
  const page = await context.newPage();
  try {
    await preparePage(page);
    await browser.startTracing(page, { path: file, categories: CATEGORIES });
    await page.goto(url);
    await page.waitForFunction(ready, null, { timeout: 30_000 });
    await page.waitForTimeout(1000);
    await browser.stopTracing();
  } finally {
    await page.close();
  }
}

const label = (event) => {
  const data = event.args?.data ?? event.args?.beginData ?? {};
  const url = data.url ? data.url.replace(/^https?:\/\/[^/]+/, '') : '';
  const fn = data.functionName ? ` ${data.functionName}` : '';
  return `${event.name}${url ? ` ${url}` : ''}${fn}`;
};

/** The events of a trace file's page main thread, and that thread's long tasks (ms) with what each is made of. */
export function longTasksOf(file, overMs = 50) {
  const { traceEvents } = JSON.parse(readFileSync(file, 'utf8'));
  const mains = traceEvents.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  // the page's renderer is the one whose main thread ran the most tasks
  const byThread = new Map();
  for (const e of traceEvents) {
    if (e.ph !== 'X' || typeof e.dur !== 'number') continue;
    if (!mains.some((m) => m.pid === e.pid && m.tid === e.tid)) continue;
    const key = `${e.pid}:${e.tid}`;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key).push(e);
  }
  const events = [...byThread.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  events.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const start = Math.min(...events.map((e) => e.ts));
  const tasks = events.filter((e) => e.name === 'RunTask' && e.dur / 1000 > overMs);
  const inside = (outer, e) => e !== outer && e.ts >= outer.ts && e.ts + e.dur <= outer.ts + outer.dur;
  /** The events inside `outer` that no other event inside it holds. */
  const children = (outer) => {
    const within = events.filter((e) => inside(outer, e));
    return within.filter((e) => !within.some((o) => o !== e && inside(o, e) && o.dur > 0));
  };
  /** What an event is made of, down to `depth` levels, pieces of at least 2 ms, the heaviest three at each level. */
  const tree = (event, depth) =>
    depth === 0
      ? []
      : children(event)
          .filter((e) => e.dur >= 2000)
          .sort((a, b) => b.dur - a.dur)
          .slice(0, 3)
          .map((e) => ({ what: label(e), ms: e.dur / 1000, under: tree(e, depth - 1) }));
  return tasks.map((task) => ({ at: (task.ts - start) / 1000, ms: task.dur / 1000, parts: tree(task, 5) }));
}

/** Prints a route's long tasks as longTasksOf gives them. */
export function printLongTasks(routeLabel, tasks) {
  console.log(`\n${routeLabel}: ${tasks.length ? `${tasks.length} task(s) over 50 ms` : 'no task over 50 ms'}`);
  const print = (parts, indent) => {
    for (const part of parts) {
      console.log(`${' '.repeat(indent)}${part.ms.toFixed(1).padStart(6)} ms  ${part.what.slice(0, 120)}`);
      print(part.under, indent + 2);
    }
  };
  for (const task of tasks) {
    console.log(`  ${Math.round(task.ms)} ms task at ${Math.round(task.at)} ms`);
    print(task.parts, 4);
  }
}
