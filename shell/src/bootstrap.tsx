import { createRoot } from 'react-dom/client';
import { App, preloadStoreFor } from './App';
import { fetchRemotesManifest, registerManifest } from './federation/remotes';
import { probeSession } from './session/probe-session';

async function start() {
  const root = createRoot(document.getElementById('root')!);
  preloadStoreFor(window.location.pathname);
  const [manifest, session] = await Promise.all([
    fetchRemotesManifest().catch((error: unknown) => {
      console.error('[shell] /remotes.json could not be loaded', error);
      return { remotes: [] };
    }),
    probeSession(),
  ]);
  registerManifest(manifest);
  root.render(<App manifest={manifest} session={session} />);
}

void start();
