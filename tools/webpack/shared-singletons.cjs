const rootPackage = require('../../package.json');

/**
 * The modules every app of the site shares as singletons. Anything shared couples deploys, so this list
 * holds only the framework, the workspace libraries that keep shared state (the api cache, the toasts,
 * the router context) and the vendor code every app carries (zod, through @cbh/contracts). The router is shared through the @cbh/router facade rather than as react-router-dom:
 * a shared package is bundled whole, and react-router whole is ~60 KB gzip of which the site uses a fraction.
 */
const SINGLETONS = [
  'react',
  'react/',
  'react-dom',
  'react-dom/',
  '@cbh/router',
  'react-redux',
  '@reduxjs/toolkit',
  '@reduxjs/toolkit/query/react',
  'styled-components',
  '@cbh/api-client',
  '@cbh/ui',
  // every app validates with the schemas of @cbh/contracts: one copy of zod per visit, not one per remote
  'zod',
  // not used by the shell: the first remote that needs one loads it, the others reuse it (charts carry uPlot)
  '@cbh/ui/overlays',
  '@cbh/ui/charts',
  // the breaker's diagram, sliders, load-test panel and charts of the learning page and the console: one copy
  '@cbh/breaker-widgets',
];

function versionOf(request) {
  const name = request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.replace(/\/$/, '').split('/')[0];
  if (name.startsWith('@cbh/')) return require(`../../libs/${name.slice(5)}/package.json`).version;
  return rootPackage.dependencies[name];
}

const sharedSingletons = Object.fromEntries(
  SINGLETONS.map((request) => [request, { singleton: true, requiredVersion: versionOf(request), strictVersion: false }]),
);

module.exports = { sharedSingletons, SINGLETONS };
