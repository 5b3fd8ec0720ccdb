#!/usr/bin/env node
// `npx cbh` in a checkout: Node runs no TypeScript, so the command runs from its build in dist/cli.
const { existsSync } = require('node:fs');
const path = require('node:path');

const built = path.resolve(__dirname, '../../../dist/cli/cbh.js');
if (!existsSync(built)) {
  console.error('cbh is not built in this checkout yet: run `npx nx run cli:build` (or `npm run build`) first.');
  process.exit(1);
}
require(built);
