import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { startFirstRequests } from './first-requests';
import { preloadStoreFor } from './store-loader';

/** Hands the main thread back to the browser (input, painting, the network) until its next task. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function start() {
  // the requests the main chunk sent already: the same promises
  const { manifest, session } = startFirstRequests();
  preloadStoreFor(window.location.pathname);
  const root = createRoot(document.getElementById('root')!);
  // The app's modules run in a task of their own rather than with React's: evaluated together they held the main
  // thread for one task of 60–110 ms. webpackMode eager keeps them in this chunk, so no request is added.
  await nextTask();
  const [{ App }, { loadFirstPageRemote }] = await Promise.all([
    import(/* webpackMode: "eager" */ './App'),
    import(/* webpackMode: "eager" */ './first-page'),
  ]);
  const [remotes, user] = await Promise.all([manifest, session]);
  loadFirstPageRemote(remotes, user, window.location.pathname);
  // A transition renders in slices that yield to the browser every few milliseconds, instead of in one long task.
  startTransition(() => root.render(<App manifest={remotes} session={user} />));
}

void start();
