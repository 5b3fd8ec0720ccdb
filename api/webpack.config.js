const path = require('node:path');
const { swcRule } = require('../tools/webpack/swc-rule.cjs');

const ROOT = path.resolve(__dirname, '..');

/** Bundles the API and the workspace libs it imports; every npm package stays an external require. */
module.exports = (_env = {}, argv = {}) => ({
  name: 'api',
  mode: argv.mode ?? 'production',
  target: 'node20',
  context: ROOT,
  entry: { main: './api/src/main.ts' },
  devtool: 'source-map',
  output: { path: path.join(ROOT, 'dist/api'), filename: '[name].js', clean: true },
  externalsPresets: { node: true },
  node: { __dirname: false, __filename: false },
  externals: [
    ({ request }, callback) =>
      /^[@a-z]/.test(request) && !request.startsWith('@cbh/') ? callback(null, `commonjs ${request}`) : callback(),
  ],
  resolve: { extensions: ['.ts', '.js'] },
  module: {
    // createRequire() is Node's, resolved when the API runs, not when it is bundled
    parser: { javascript: { createRequire: false } },
    rules: [
      swcRule({
        test: /\.ts$/,
        target: 'es2022',
        parser: { decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        keepClassNames: true,
      }),
    ],
  },
  optimization: { minimize: false },
  stats: 'errors-warnings',
});
