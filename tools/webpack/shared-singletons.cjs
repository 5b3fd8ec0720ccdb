const fs = require('node:fs');
const path = require('node:path');
const rootPackage = require('../../package.json');

/**
 * The modules every app of the site shares as singletons. Anything shared couples deploys, so this list
 * holds only the framework and the workspace libraries that keep shared state (the api cache, the toasts,
 * the router context). A shared package is bundled whole, so vendors reach the apps through the workspace
 * library that uses them: RTK only inside @cbh/api-client, react-router only through the @cbh/router facade
 * (react-router whole is ~60 KB gzip of which the site uses a fraction). No browser code uses zod: the
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
  // the breaker's diagram, sliders, load-test panel and charts of the learning page and the console: one copy
  '@cbh/breaker-widgets',
];

function versionOf(request) {
  const name = request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.replace(/\/$/, '').split('/')[0];
  if (name.startsWith('@cbh/')) return require(`../../libs/${name.slice(5)}/package.json`).version;
  return rootPackage.dependencies[name];
}

/**
 * The Radix primitives both the shell's toast and tooltip code and the overlays entry (dialogs, tabs, switches)
 * are built on. Shared, but not as singletons, so whichever app needs them first provides them to the others
 * and a visit downloads each once; each Radix component itself lives in one entry only and is not shared.
 * bench:bundle counts any library a visit of every route downloads twice.
 */
const SHARED_RADIX_PRIMITIVES = [
  '@radix-ui/primitive',
  '@radix-ui/react-collection',
  '@radix-ui/react-compose-refs',
  '@radix-ui/react-context',
  '@radix-ui/react-dismissable-layer',
  '@radix-ui/react-focus-scope',
  '@radix-ui/react-id',
  '@radix-ui/react-portal',
  '@radix-ui/react-presence',
  '@radix-ui/react-primitive',
  '@radix-ui/react-slot',
  '@radix-ui/react-use-callback-ref',
  '@radix-ui/react-use-controllable-state',
  '@radix-ui/react-use-effect-event',
  '@radix-ui/react-use-layout-effect',
  '@radix-ui/react-use-size',
];

const installedVersion = (name) =>
  JSON.parse(fs.readFileSync(path.join(__dirname, '../../node_modules', name, 'package.json'), 'utf8')).version;

const singletons = Object.fromEntries(
  SINGLETONS.map((request) => [request, { singleton: true, requiredVersion: versionOf(request), strictVersion: false }]),
);
const radixPrimitives = Object.fromEntries(
  SHARED_RADIX_PRIMITIVES.map((name) => [name, { requiredVersion: `^${installedVersion(name)}` }]),
);

/**
 * What an app shares. Every shared package is registered by the app's entry whether or not the app uses it
 * (about 90 bytes gzip each), so an app whose screens open no Radix overlay leaves the primitives out.
 */
function sharedFor({ radix }) {
  return radix ? { ...singletons, ...radixPrimitives } : singletons;
}

module.exports = { sharedFor, SINGLETONS };
