const { federatedApp } = require('../tools/webpack/federated-app.cjs');
const { SHELL_DEV_PORT } = require('../tools/webpack/dev-ports.cjs');

module.exports = federatedApp({
  project: 'shell',
  name: 'shell',
  devPort: SHELL_DEV_PORT,
  host: true,
  // A remote that cannot be loaded renders the fallback card instead of breaking the page.
  runtimePlugins: ['src/federation/remote-fallback-plugin.ts'],
});
