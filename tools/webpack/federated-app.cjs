const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const TerserPlugin = require('terser-webpack-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const zlib = require('node:zlib');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { BundleStatsPlugin } = require('./bundle-stats-plugin.cjs');
const { providedVersions, sharedSingletons } = require('./shared-singletons.cjs');
const { swcRule } = require('./swc-rule.cjs');

const ROOT = path.resolve(__dirname, '../..');
const API_ORIGIN = process.env.API_ORIGIN ?? 'http://localhost:3000';

/**
 * Every remote exposes its routes component as ./Routes (the shell loads it under REMOTE_ROUTES_MODULE of
 * @cbh/contracts) from src/exposes/Routes.tsx; a remote lists only what it exposes beyond that.
 */
const ROUTES_EXPOSE = { './Routes': './src/exposes/Routes.tsx' };

/**
 * The host hands its federation runtime to the remotes (they build with externalRuntime). This is the plugin
 * `experiments.provideExternalRuntime` adds, but as its ES module: the option adds the CommonJS build, which
 * brought a second, CommonJS copy of the whole runtime (runtime-core and sdk) into the shell's main chunk.
 */
const PROVIDE_RUNTIME_PLUGIN = path.join(
  path.dirname(require.resolve('@module-federation/inject-external-runtime-core-plugin')),
  'index.js',
);

/** The build's text files, also as .br and .gz. */
function compressedCopies() {
  const files = { test: /\.(js|mjs|css|html|json|svg|txt)$/, threshold: 1024, minRatio: 0.9 };
  return [
    new CompressionPlugin({ ...files, filename: '[path][base].gz', algorithm: 'gzip', compressionOptions: { level: 9 } }),
    new CompressionPlugin({
      ...files,
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
    }),
  ];
}

/**
 * The webpack config of one app of the site: the shell (host) when `host` is set, a remote otherwise.
 * Output goes to dist/<project>/ unless `--env outputPath=...` says otherwise; `--env projectDir=...` builds
 * a copy of the app's folder instead of the original. `runtimePlugins` are federation runtime plugins of the
 * host, as paths relative to the app's folder.
 */
function federatedApp({ project, name, exposes = {}, runtimePlugins = [], devPort, host = false }) {
  return (env = {}, argv = {}) => {
    const production = argv.mode !== 'development';
    const projectDir = env.projectDir ? path.resolve(env.projectDir) : path.join(ROOT, project);
    const fileName = production ? '[name].[contenthash:10].js' : '[name].js';
    const outputPath = env.outputPath ? path.resolve(env.outputPath) : path.join(ROOT, 'dist', project);

    const federation = host
      ? {
          name,
          remotes: {},
          runtimePlugins: [...runtimePlugins.map((plugin) => path.join(projectDir, plugin)), PROVIDE_RUNTIME_PLUGIN],
          manifest: false,
          // A browser-only runtime: without Node's script loading, 1.7 KB gzip less in the shell's start. The
          // snapshot plugin stays (disableSnapshot would save 1.5 KB): it reads the remotes' mf-manifest.json,
          // which the shell's redeploy check relies on, and fetches a route's chunks alongside its remoteEntry.js.
          experiments: { optimization: { target: 'web' } },
        }
      : {
          name,
          filename: 'remoteEntry.js',
          exposes: { ...ROUTES_EXPOSE, ...exposes },
          manifest: { fileName: 'mf-manifest.json' },
          experiments: {
            externalRuntime: true,
            optimization: { disableSnapshot: true, disableRemote: true, target: 'web' },
          },
        };

    return {
      name: project,
      mode: production ? 'production' : 'development',
      context: projectDir,
      entry: host ? { main: './src/index.ts' } : {},
      devtool: production ? false : 'eval-cheap-module-source-map',
      output: {
        path: outputPath,
        publicPath: host ? '/' : 'auto',
        // the shell forgets a redeployed remote's chunks by this name (webpackChunk<name>)
        uniqueName: name,
        filename: fileName,
        chunkFilename: fileName,
        clean: true,
      },
      resolve: { extensions: ['.tsx', '.ts', '.mjs', '.js'] },
      module: {
        rules: [
          swcRule({ test: /\.tsx$/, parser: { tsx: true }, transform: { react: { runtime: 'automatic', development: !production } } }),
          swcRule({ test: /\.ts$/ }),
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          ...federation,
          shared: sharedSingletons,
          shareStrategy: 'loaded-first',
          dts: false,
        }),
        host && new HtmlWebpackPlugin({ template: path.join(projectDir, 'src/index.html'), scriptLoading: 'defer' }),
        // what the shell provides to remotes, read by the hub's contract check of a remote's release
        host && new SharedVersionsPlugin(),
        // brotli and gzip copies beside every text file of 1 KB or more, made once at build time: the API serves
        // the one the browser accepts (@fastify/static preCompressed) without compressing per request
        ...(production ? compressedCopies() : []),
        production && new BundleStatsPlugin({ project, outputFile: path.join(outputPath, '..', 'bundle-stats', `${project}.json`) }),
      ].filter(Boolean),
      optimization: {
        minimizer: [new TerserPlugin({ minify: TerserPlugin.swcMinify, extractComments: false })],
        // A remote's entry lists every chunk it may load, so a remote keeps its own code in the exposed
        // module's chunk instead of splitting vendors out (the entry stays within its 8 KB budget).
        ...(host ? {} : { splitChunks: { cacheGroups: { defaultVendors: false, default: false } } }),
      },
      performance: { hints: false },
      infrastructureLogging: { level: 'warn' },
      stats: 'errors-warnings',
      devServer: {
        port: devPort,
        hot: false,
        historyApiFallback: host,
        headers: { 'Access-Control-Allow-Origin': '*' },
        devMiddleware: host ? undefined : { publicPath: `/remotes/${project}/` },
        proxy: host
          ? [
              { context: ['/api', '/remotes.json'], target: API_ORIGIN },
              { context: ['/ws'], target: API_ORIGIN, ws: true },
              ...Object.entries(require('./dev-ports.cjs').REMOTE_DEV_PORTS).map(([remote, port]) => ({
                context: [`/remotes/${remote}/`],
                target: `http://localhost:${port}`,
              })),
            ]
          : undefined,
      },
    };
  };
}

/** Writes shared-versions.json (see providedVersions) beside the shell's files. */
class SharedVersionsPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('SharedVersionsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'SharedVersionsPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          compilation.emitAsset(
            'shared-versions.json',
            new compiler.webpack.sources.RawSource(JSON.stringify(providedVersions(), null, 2)),
          );
        },
      );
    });
  }
}

module.exports = { federatedApp };
