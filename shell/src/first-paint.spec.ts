import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The page as the server sends it, before any script: e2e/first-paint.e2e.ts checks it against the app's spinner in the browser. */
const template = readFileSync(path.join(__dirname, 'index.html'), 'utf8');

it('paints a Loading spinner inside #root, in plain HTML and CSS', () => {
  const root = /<div id="root">([\s\S]*?)<\/div>\s*<\/body>/.exec(template)?.[1] ?? '';
  expect(root).toMatch(/<div class="first-paint" role="status" aria-label="Loading">/);
  expect(template).toMatch(/\.first-paint-ring \{[^}]*animation: first-paint-spin/);
  // a script would be refused by the site's policy (script-src 'self') and would wait for the bundle anyway
  expect(template).not.toMatch(/<script/);
});
