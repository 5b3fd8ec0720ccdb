const { nodeBundle } = require('../../tools/webpack/node-bundle.cjs');
const { swcRule } = require('../../tools/webpack/swc-rule.cjs');

/**
 * Bundles the command with everything it imports, npm packages included, into one file: a CI job can copy
 * dist/cli/cbh.js next to its config and run it with Node alone.
 */
module.exports = (_env = {}, argv = {}) =>
  nodeBundle({
    name: 'cli',
    argv,
    entry: { cbh: './libs/cli/src/main.ts' },
    module: { rules: [swcRule({ test: /\.ts$/, target: 'es2022' })] },
  });
