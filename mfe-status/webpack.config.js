const { federatedApp } = require('../tools/webpack/federated-app.cjs');
const { REMOTE_DEV_PORTS } = require('../tools/webpack/dev-ports.cjs');

module.exports = federatedApp({
  project: 'mfe-status',
  name: 'mfe_status',
  devPort: REMOTE_DEV_PORTS['mfe-status'],
});
