const { federatedApp } = require('../tools/webpack/federated-app.cjs');
const { SHELL_DEV_PORT } = require('../tools/webpack/dev-ports.cjs');

module.exports = federatedApp({ project: 'shell', name: 'shell', devPort: SHELL_DEV_PORT, host: true });
