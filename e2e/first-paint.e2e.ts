import { expect, test, type Locator, type Page } from './support/test';

const held = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Console lines the browser writes when the page's Content-Security-Policy refuses something. */
function policyRefusals(page: Page): string[] {
  const refusals: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
  });
  return refusals;
}

/** Where a full-screen spinner sits and how it looks: its box, and its ring's place, colours and spin. */
async function lookOf(spinner: Locator) {
  await expect(spinner).toBeVisible();
  return spinner.evaluate((box: HTMLElement) => {
    const ring = box.firstElementChild as HTMLElement;
    const outer = getComputedStyle(box);
    const inner = getComputedStyle(ring);
    const { x, y, width, height } = box.getBoundingClientRect();
    return {
      box: { x, y, width, height, position: outer.position, background: outer.backgroundColor },
      // the ring's layout box, not its bounding rectangle, which changes as it turns
      ring: [ring.offsetLeft, ring.offsetTop, ring.offsetWidth, ring.offsetHeight],
      look: [inner.borderTopWidth, inner.borderTopColor, inner.borderLeftColor, inner.borderRadius, inner.boxSizing],
      spin: [inner.animationDuration, inner.animationTimingFunction, inner.animationIterationCount],
      keyframes: ring
        .getAnimations()
        .map((animation) => (animation.effect as KeyframeEffect).getKeyframes().map((frame) => [frame.offset, frame.transform])),
    };
  });
}

test('a full-screen spinner shows from the first paint until the session is known', async ({ page }) => {
  const refusals = policyRefusals(page);
  let answered = false;
  await page.route('**/api/auth/user', async (route) => {
    await held(2000);
    answered = true;
    await route.continue();
  });
  await page.goto('/', { waitUntil: 'commit' });

  const spinner = page.getByRole('status', { name: 'Loading' });
  const painted = await lookOf(spinner);
  expect(answered).toBe(false);
  // the whole window, and the ring turning in its middle: the page's own styles applied
  expect(painted.box).toMatchObject({ x: 0, y: 0, width: 1280, height: 800, position: 'fixed' });
  expect(painted.ring).toEqual([620, 380, 40, 40]);
  expect(painted.keyframes).toEqual([
    [
      [0, 'none'],
      [1, 'rotate(360deg)'],
    ],
  ]);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Master Circuit Breaker Patterns');
  expect(answered).toBe(true);
  await expect(spinner).toHaveCount(0);
  expect(refusals).toEqual([]);
});

test("the app's own spinner takes its place looking the same, so nothing moves", async ({ page }) => {
  const refusals = policyRefusals(page);
  // the first question (the session probe) fails outright, so the app asks again and shows its spinner meanwhile
  let asked = 0;
  await page.route('**/api/auth/user', async (route) => {
    const first = ++asked === 1;
    await held(1500);
    await (first ? route.abort('failed') : route.continue());
  });
  await page.goto('/', { waitUntil: 'commit' });

  const painted = await lookOf(page.getByRole('status', { name: 'Loading' }));
  const app = await lookOf(page.getByRole('status', { name: 'Checking your session' }));
  expect(app).toEqual(painted);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Master Circuit Breaker Patterns');
  expect(asked).toBe(2);
  expect(refusals).toEqual([]);
});

test("the page's first questions are asked by the document and answered once: /remotes.json and the session probe", async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname === '/remotes.json' || pathname === '/api/auth/user') asked.push(pathname);
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Master Circuit Breaker Patterns');
  const initiators = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((entry) => /\/remotes\.json$|\/api\/auth\/user$/.test(entry.name))
      .map((entry) => [new URL(entry.name).pathname, (entry as PerformanceResourceTiming).initiatorType]),
  );
  // the shell's own fetches took the preloaded answers: a preload they did not match would be a second request each
  expect(asked.sort()).toEqual(['/api/auth/user', '/remotes.json']);
  expect(initiators.sort()).toEqual([
    ['/api/auth/user', 'link'],
    ['/remotes.json', 'link'],
  ]);
});
