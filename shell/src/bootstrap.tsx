import { createRoot } from 'react-dom/client';
import { App } from './App';
import { fetchRemotesManifest, registerManifest } from './federation/remotes';

async function start() {
  const root = createRoot(document.getElementById('root')!);
  const manifest = await fetchRemotesManifest().catch((error: unknown) => {
    console.error('[shell] /remotes.json could not be loaded', error);
    return { remotes: [] };
  });
  registerManifest(manifest);
  root.render(<App manifest={manifest} />);
}

void start();
