/** Ports of the webpack dev servers that `npm run dev` starts; the shell's proxies each remote's path to it. */
const SHELL_DEV_PORT = 4200;
const REMOTE_DEV_PORTS = {
  'mfe-learning': 4201,
  'mfe-dashboard': 4202,
  'mfe-domains': 4203,
  'mfe-users': 4204,
  'mfe-patterns': 4205,
  'mfe-status': 4206,
};
module.exports = { SHELL_DEV_PORT, REMOTE_DEV_PORTS };
