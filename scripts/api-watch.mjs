// The API in watch mode: webpack rebuilds dist/api on change and node restarts it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './run.mjs';

const webpack = spawn(
  process.execPath,
  [path.join(ROOT, 'node_modules/webpack-cli/bin/cli.js'), '--config', 'api/webpack.config.js', '--mode', 'development', '--watch'],
  { cwd: ROOT, stdio: 'inherit' },
);
const main = path.join(ROOT, 'dist/api/main.js');
while (!existsSync(main)) await new Promise((resolve) => setTimeout(resolve, 300));
const api = spawn(process.execPath, ['--watch', '--enable-source-maps', main], { cwd: ROOT, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    webpack.kill(signal);
    api.kill(signal);
    process.exit(0);
  });
}
