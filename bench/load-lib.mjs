// Compiles a workspace lib's TypeScript with swc into .data/bench/<lib>/ and loads it, so benchmarks run the
// real source without a build step of their own.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { transformFileSync } from '@swc/core';
import { ROOT } from '../scripts/run.mjs';

export function loadLib(name) {
  const source = path.join(ROOT, 'libs', name, 'src');
  const out = path.join(ROOT, '.data/bench', name);
  mkdirSync(out, { recursive: true });
  for (const file of readdirSync(source).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))) {
    const { code } = transformFileSync(path.join(source, file), {
      swcrc: false,
      jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
      module: { type: 'commonjs' },
    });
    writeFileSync(path.join(out, file.replace(/\.ts$/, '.js')), code);
  }
  return createRequire(import.meta.url)(path.join(out, 'index.js'));
}
