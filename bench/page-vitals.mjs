// What bench/web-vitals.mjs reads in the page: the browser's own PerformanceObserver entries of a load (paint, LCP,
// layout shifts, long tasks) and when the route's main heading first shows, gathered in window.__vitals. The function
// is handed to Playwright's addInitScript, which runs its source in the page before the page's own scripts: it may
// use nothing from this module but itself.

/** Runs in the page before its own scripts: collects the entries the browser reports while the page loads. */
export function instrument() {
  const describe = (node) => {
    if (!node || node.nodeType !== 1) return node ? node.nodeName : null;
    const text = (node.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${text ? ` "${text}"` : ''}`;
  };
  const vitals = { fcp: null, lcp: null, lcpElement: null, cls: 0, shifts: [], longTasks: [], heading: null };
  window.__vitals = vitals;
  const observe = (type, onEntry) =>
    new PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({ type, buffered: true });
  observe('paint', (entry) => {
    if (entry.name === 'first-contentful-paint') vitals.fcp = entry.startTime;
  });
  observe('largest-contentful-paint', (entry) => {
    vitals.lcp = entry.startTime;
    vitals.lcpElement = describe(entry.element);
  });
  // CLS as Chromium defines it: shifts less than 1 s apart form a session window of at most 5 s; the largest counts.
  let windowValue = 0;
  let windowStart = 0;
  let previous = 0;
  observe('layout-shift', (entry) => {
    if (entry.hadRecentInput) return;
    if (windowValue && entry.startTime - previous < 1000 && entry.startTime - windowStart < 5000) windowValue += entry.value;
    else {
      windowValue = entry.value;
      windowStart = entry.startTime;
    }
    previous = entry.startTime;
    vitals.cls = Math.max(vitals.cls, windowValue);
    vitals.shifts.push({ at: entry.startTime, value: entry.value, sources: (entry.sources ?? []).map((source) => describe(source.node)) });
  });
  observe('longtask', (entry) => vitals.longTasks.push({ start: entry.startTime, duration: entry.duration }));
  // The heading's time without forcing a layout: a new `main h1` is watched for its size, which a ResizeObserver
  // reports after the browser's own layout of the frame (a look at every animation frame, getBoundingClientRect and
  // getComputedStyle, laid the page out ahead of the browser some 30 times a load, in the page's time being measured).
  const found = (heading) => {
    if (vitals.heading !== null) return;
    vitals.heading = performance.now();
    vitals.headingText = heading.textContent;
    sized.disconnect();
    inserted.disconnect();
  };
  // laid out with a size, and not hidden (visibility is a style: in the observer's callback it is read from the frame's
  // own clean layout; a heading sized but hidden is looked at again each frame until it shows, a style read each); a
  // heading taken out of the page is left to the observers, which see it again if it comes back
  const lookUntilShown = (heading) => {
    if (vitals.heading !== null || !heading.isConnected) return;
    if (heading.checkVisibility({ visibilityProperty: true })) found(heading);
    else requestAnimationFrame(() => lookUntilShown(heading));
  };
  const sized = new ResizeObserver((entries) => {
    // every sized heading of the batch: one that stays hidden must not hide another's only notice
    for (const { target, borderBoxSize } of entries) {
      const [box] = borderBoxSize;
      if (box && box.inlineSize > 0 && box.blockSize > 0) lookUntilShown(target);
    }
  });
  const watched = new WeakSet();
  const inserted = new MutationObserver(() => {
    const heading = document.querySelector('main h1');
    if (!heading || watched.has(heading)) return;
    watched.add(heading);
    sized.observe(heading);
  });
  inserted.observe(document, { childList: true, subtree: true });
}
