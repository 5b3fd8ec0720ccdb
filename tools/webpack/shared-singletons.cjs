const rootPackage = require('../../package.json');

/**
 * The modules every app of the site shares as singletons. Anything shared couples deploys, so this list
 * holds only the framework and the workspace libraries that keep shared state (the api cache, the toasts,
 * the router context). A shared package is bundled whole, so vendors reach the apps through the workspace
 * library that uses them: RTK only inside @cbh/api-client, react-router only through the @cbh/router facade
 * (react-router whole is ~60 KB gzip of which the site uses a fraction). No browser code uses zod (lint refuses it): the
 * screens import the zod-free vocabulary modules of @cbh/contracts, the schemas are the API's.
 */
const SINGLETONS = [
  'react',
  'react/',
  'react-dom',
  'react-dom/',
  '@cbh/router',
  'react-redux',
  'styled-components',
  '@cbh/api-client',
  '@cbh/ui',
  // not used by the shell: the first remote that needs one loads it, the others reuse it (charts carry uPlot)
  '@cbh/ui/overlays',
  '@cbh/ui/charts',
  // the breaker's diagram, journal and charts of the learning page and the console: one copy; the sliders and the
  // load-test panel in an entry of their own, which a breaker's page does without
  '@cbh/breaker-widgets',
  '@cbh/breaker-widgets/controls',
];

function versionOf(request) {
  const name = request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.replace(/\/$/, '').split('/')[0];
  if (name.startsWith('@cbh/')) return require(`../../libs/${name.slice(5)}/package.json`).version;
  return rootPackage.dependencies[name];
}

const sharedSingletons = Object.fromEntries(
  SINGLETONS.map((request) => [request, { singleton: true, requiredVersion: versionOf(request), strictVersion: false }]),
);

/**
 * The version of each shared package the shell provides, as installed (react 19.3.1, @cbh/ui 0.1.0…): what a remote's
 * build is checked against before it may go live (remoteContractProblems in libs/contracts). The shell's build writes
 * it beside its files as shared-versions.json.
 */
function providedVersions() {
  const names = [...new Set(SINGLETONS.map((request) => (request.endsWith('/') ? request.slice(0, -1) : request)))];
  return Object.fromEntries(
    names.map((name) => {
      const base = name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0];
      if (base.startsWith('@cbh/')) return [name, require(`../../libs/${base.slice(5)}/package.json`).version];
      return [name, require(`${base}/package.json`).version];
    }),
  );
}

module.exports = { sharedSingletons, SINGLETONS, providedVersions };
