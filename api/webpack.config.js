const { nodeBundle } = require('../tools/webpack/node-bundle.cjs');
const { swcRule } = require('../tools/webpack/swc-rule.cjs');

/** Bundles the API and the workspace libs it imports; every npm package stays an external require. */
module.exports = (_env = {}, argv = {}) =>
  nodeBundle({
    name: 'api',
    argv,
    entry: { main: './api/src/main.ts' },
    externalsPresets: { node: true },
    node: { __dirname: false, __filename: false },
    externals: [
      ({ request }, callback) =>
        /^[@a-z]/.test(request) && !request.startsWith('@cbh/') ? callback(null, `commonjs ${request}`) : callback(),
    ],
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
  });
