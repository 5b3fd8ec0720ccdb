// npm start: build what changed (Nx restores the rest from its cache), then run the API serving the whole site.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildAll, ROOT, run } from './run.mjs';

if (!existsSync(path.join(ROOT, 'node_modules/.bin/nx'))) {
  console.error('Dependencies are missing: run `npm install` first.');
  process.exit(1);
}
console.log('Building the site (the first build takes about a minute)…');
const built = await buildAll();
if (built !== 0) process.exit(built);
console.log(`Starting on http://localhost:${process.env.PORT ?? 3000} …`);
process.exit(await run(process.execPath, ['--enable-source-maps', 'dist/api/main.js']));
