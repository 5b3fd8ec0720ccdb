const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');

/**
 * A webpack configuration for a Node program of the workspace (the API, the command line): one file per entry in
 * dist/<name>, with source maps and unminified, so that a stack trace in production reads as the source does.
 * `more` adds to or overrides it (externals, rules).
 */
function nodeBundle({ name, entry, argv = {}, ...more }) {
  return {
    name,
    mode: argv.mode ?? 'production',
    target: 'node20',
    context: ROOT,
    entry,
    devtool: 'source-map',
    output: { path: path.join(ROOT, `dist/${name}`), filename: '[name].js', clean: true },
    ...more,
    resolve: { extensions: ['.ts', '.js'] },
    optimization: { minimize: false },
    stats: 'errors-warnings',
  };
}

module.exports = { nodeBundle };
