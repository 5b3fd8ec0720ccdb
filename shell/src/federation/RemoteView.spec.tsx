/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { startTransition, Suspense } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { RemoteDescriptor } from '@cbh/contracts';
import type { RoutesModule } from './remotes';
import { RemoteView } from './RemoteView';

const remote: RemoteDescriptor = { name: 'mfe_learning', entry: '/remotes/mfe-learning/mf-manifest.json', routes: ['/'] };
const Page = () => <h1>Learning</h1>;

/** A load the test settles by hand. */
function deferredLoad() {
  let settle!: { resolve: (module: RoutesModule) => void; reject: (error: Error) => void };
  const promise = new Promise<RoutesModule>((resolve, reject) => (settle = { resolve, reject }));
  return { load: jest.fn(() => promise), settle };
}

/** Waits for `check` to hold, looking every 5 ms of real time (counted), at most `withinMs`. */
async function waitUntil(check: () => boolean, withinMs: number): Promise<boolean> {
  for (let waited = 0; !check(); waited += 5) {
    if (waited >= withinMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}

/** A root of the test's own in a fresh container, unmounted (in act) and removed once `run` has finished. */
async function inOwnRoot(run: (root: Root, container: HTMLElement) => Promise<void>) {
  const container = document.body.appendChild(document.createElement('div'));
  const root = createRoot(container);
  try {
    await run(root, container);
  } finally {
    act(() => root.unmount());
    container.remove();
  }
}

it('shows the page as soon as its remote has loaded, with no wait after "Loading…" (React holds a Suspense boundary 300 ms)', async () => {
  // as in the browser: outside act(), which lifts React's hold on a boundary that showed a fallback lately
  const globals = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  const actEnvironment = globals.IS_REACT_ACT_ENVIRONMENT;
  globals.IS_REACT_ACT_ENVIRONMENT = false;
  const container = document.body.appendChild(document.createElement('div'));
  const root = createRoot(container);
  try {
    const { load, settle } = deferredLoad();
    root.render(<RemoteView remote={remote} load={load} reset={jest.fn()} />);
    expect(await waitUntil(() => container.textContent === 'Loading…', 2000)).toBe(true);
    // a reveal React holds back waits on a timer until 300 ms after the fallback (the learning page's chunk came
    // 50 ms after "Loading…" was painted, and its text 250 ms later); one that is not held back comes at once
    settle.resolve({ default: Page });
    expect(await waitUntil(() => container.querySelector('h1')?.textContent === 'Learning', 150)).toBe(true);
  } finally {
    root.unmount();
    container.remove();
    globals.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
  }
});

it('shows the fallback card for a remote that cannot load, and Retry loads it again', async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const first = deferredLoad();
  const second = deferredLoad();
  const load = jest.fn().mockImplementationOnce(first.load).mockImplementationOnce(second.load);
  const reset = jest.fn();
  render(<RemoteView remote={remote} load={load} reset={reset} />);
  await act(async () => first.settle.reject(new Error('remoteEntry.js 404')));
  expect(screen.getByTestId('remote-fallback').textContent).toContain('remoteEntry.js 404');

  fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(reset).toHaveBeenCalledWith(remote);
  expect(screen.getByRole('status').textContent).toBe('Loading…');
  await act(async () => second.settle.resolve({ default: Page }));
  expect(screen.getByRole('heading', { name: 'Learning' })).toBeTruthy();
  expect(load).toHaveBeenCalledTimes(2);
});

it('loads the remote once for a view React had to render again before showing it (a render it threw away)', async () => {
  // a route change is a transition: React may set its render aside (here a sibling waits for data) and start it again
  let ready = false;
  let wake!: () => void;
  const waiting = new Promise<void>((resolve) => (wake = resolve));
  function WaitsOnce() {
    if (!ready) throw waiting;
    return null;
  }
  const { load, settle } = deferredLoad();
  await inOwnRoot(async (root, container) => {
    await act(async () =>
      startTransition(() =>
        root.render(
          <>
            <RemoteView remote={remote} load={load} reset={jest.fn()} />
            <WaitsOnce />
          </>,
        ),
      ),
    );
    expect(container.textContent).toBe('');
    ready = true;
    await act(async () => wake());
    expect(container.textContent).toBe('Loading…');
    await act(async () => settle.resolve({ default: Page }));
    expect(container.querySelector('h1')?.textContent).toBe('Learning');
    // one load, so one report of it: the release screen's figures and a canary's verdict count each load
    expect(load).toHaveBeenCalledTimes(1);
  });
});

it('keeps its loaded remote when a boundary above it hides it for a moment and shows it again', async () => {
  // an urgent update that waits for code (a dialog's chunk) hides what the nearest Suspense boundary holds, the
  // remote's view among it, and shows it again: the page the person was on stays, and the remote is not loaded anew
  let wake!: () => void;
  const waiting = new Promise<void>((resolve) => (wake = resolve));
  let ready = false;
  function WaitsWhenShown({ shown }: { shown: boolean }) {
    if (shown && !ready) throw waiting;
    return null;
  }
  const { load, settle } = deferredLoad();
  const tree = (shown: boolean) => (
    <Suspense fallback={<p>Waiting</p>}>
      <RemoteView remote={remote} load={load} reset={jest.fn()} />
      <WaitsWhenShown shown={shown} />
    </Suspense>
  );
  await inOwnRoot(async (root, container) => {
    await act(async () => root.render(tree(false)));
    await act(async () => settle.resolve({ default: Page }));
    expect(container.querySelector('h1')?.textContent).toBe('Learning');
    await act(async () => root.render(tree(true)));
    expect(container.textContent).toContain('Waiting');
    ready = true;
    await act(async () => wake());
    expect(container.querySelector('h1')?.textContent).toBe('Learning');
    expect(load).toHaveBeenCalledTimes(1);
  });
});
