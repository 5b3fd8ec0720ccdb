const { federatedApp } = require('../tools/webpack/federated-app.cjs');
const { REMOTE_DEV_PORTS } = require('../tools/webpack/dev-ports.cjs');

module.exports = federatedApp({
  project: 'mfe-domains',
  name: 'mfe_domains',
  devPort: REMOTE_DEV_PORTS['mfe-domains'],
});
