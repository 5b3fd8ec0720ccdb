const path = require('node:path');
const { swcRule } = require('../../tools/webpack/swc-rule.cjs');

const ROOT = path.resolve(__dirname, '../..');

/**
 * Bundles the command with everything it imports, npm packages included, into one file: a CI job can copy
 * dist/cli/cbh.js next to its config and run it with Node alone.
 */
module.exports = (_env = {}, argv = {}) => ({
  name: 'cli',
  mode: argv.mode ?? 'production',
  target: 'node20',
  context: ROOT,
  entry: { cbh: './libs/cli/src/main.ts' },
  devtool: 'source-map',
  output: { path: path.join(ROOT, 'dist/cli'), filename: '[name].js', clean: true },
  resolve: { extensions: ['.ts', '.js'] },
  module: { rules: [swcRule({ test: /\.ts$/, target: 'es2022' })] },
  optimization: { minimize: false },
  stats: 'errors-warnings',
});
