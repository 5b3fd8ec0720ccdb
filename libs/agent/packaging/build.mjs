// Builds @cbh/agent for services outside this repository: CommonJS and declarations in dist/ (or the folder given),
// with the parts of @cbh/contracts and @cbh/breaker it uses compiled in, so that it needs nothing of this repository
// at run time. Usage: node libs/agent/packaging/build.mjs [outDir]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist'));
/** Where the compiled workspace packages land (tsconfig.build.json's rootDir is libs/). */
const TARGETS = { '@cbh/contracts': 'agent/packaging/contracts', '@cbh/breaker': 'breaker/src/index' };
/** What the package may require at run time: Node's own modules and its optional peers (ws: the stream's client). */
const ALLOWED = new Set([...builtinModules, 'opossum', 'cockatiel', 'ws']);
const ENTRY = path.join(OUT, 'agent/src/index.js');

rmSync(OUT, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', OUT], { stdio: 'inherit' });

const files = readdirSync(OUT, { recursive: true })
  .map((file) => path.join(OUT, file))
  .filter((file) => file.endsWith('.js') || file.endsWith('.d.ts'));

// tsc keeps the workspace packages' names, which mean nothing outside this repository: point them at their copies
for (const file of files) {
  const code = readFileSync(file, 'utf8').replace(/(["'])(@cbh\/[\w-]+)\1/g, (match, quote, name) => {
    if (!TARGETS[name]) throw new Error(`${path.relative(OUT, file)} imports ${name}, which the build does not include`);
    const relative = path.relative(path.dirname(file), path.join(OUT, TARGETS[name])).split(path.sep).join('/');
    return quote + (relative.startsWith('.') ? relative : `./${relative}`) + quote;
  });
  writeFileSync(file, code);
}

// Only what the entry requires is kept as JavaScript (contracts files compiled for their types alone would require
// a schema library); every other module it requires must be Node's own or a peer.
const reached = new Set();
const visit = (file) => {
  if (reached.has(file)) return;
  reached.add(file);
  for (const [, , specifier] of readFileSync(file, 'utf8').matchAll(/require\((["'])([^"']+)\1\)/g)) {
    if (specifier.startsWith('.')) visit(`${path.resolve(path.dirname(file), specifier)}.js`);
    else if (!ALLOWED.has(specifier.replace(/^node:/, ''))) throw new Error(`${path.relative(OUT, file)} requires ${specifier}`);
  }
};
visit(ENTRY);
for (const file of files) if (file.endsWith('.js') && !reached.has(file)) rmSync(file);
console.log(`@cbh/agent built in ${path.relative(process.cwd(), OUT) || '.'} (${reached.size} modules)`);
