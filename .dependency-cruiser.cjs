/**
 * The import structure `npm run lint` holds the code to (dependency-cruiser). The API is a few contexts whose arrows
 * point one way, down this list; a context is used by others only through its `index.ts`:
 *
 *   configuration, retention          on top: export/import/bulk and pruning, through the ports below
 *   status | on-call | slos | drills  status pages; alert groups and escalation; service level objectives; drills
 *   domains | notifications | releases features: each may use another's index.ts, never in a circle
 *   breakers                          breaker configs, engine, load tests, metrics, /ws, fleet, scraping
 *   identity                          sign-in, sessions, users, tokens, organisation, elevation, access guard, audit
 *   platform                          config, database, bus and replicas, web, mail, health, docs, shutdown
 *
 * The composition root (api/src/*.ts) stands above them all. See api/src/README.md.
 */
const CONTEXT = '^api/src/([^/]+)/';
const TESTS = [
  '\\.spec\\.tsx?$',
  '(^|/|\\.)test-kit\\.tsx?$',
  '^api/test/',
  '^e2e/',
  '^tools/(jest|testing)/',
  '^bench/',
  '^deploy/.*\\.spec\\.ts$',
];

/** `from` may not import any of `to`: the context order above, one rule per level. */
const below = (name, from, to) => ({
  name,
  severity: 'error',
  comment: `${from} sits below ${to.join(', ')} and may not import it: react to their changes through an event on the bus, or move what both need down`,
  // tests of a context may drive the whole product (a breaker's event as a notification reads it)
  from: { path: `^api/src/(${from})/`, pathNot: TESTS },
  to: { path: `^api/src/(${to.join('|')})/` },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other, directly or through others: move what both need into a third file both import',
      from: {},
      to: { circular: true },
    },
    below('platform-is-the-floor', 'platform', [
      'identity',
      'breakers',
      'domains',
      'notifications',
      'releases',
      'configuration',
      'retention',
      'status',
    ]),
    below('identity-sits-on-platform', 'identity', [
      'breakers',
      'domains',
      'notifications',
      'releases',
      'configuration',
      'retention',
      'status',
    ]),
    below('breakers-sit-below-features', 'breakers', ['domains', 'notifications', 'releases', 'configuration', 'retention', 'status']),
    below('features-sit-below-status', 'domains|notifications|releases', ['status']),
    below('features-sit-below-configuration', 'domains|notifications|releases|status', ['configuration', 'retention']),
    below('status-stands-apart-from-releases', 'status', ['releases']),
    // on-call (being built) sits beside status: above the features, below configuration
    below('features-sit-below-on-call', 'platform|identity|breakers|domains|notifications|releases|status', ['on-call']),
    below('on-call-sits-below-configuration', 'on-call', ['configuration', 'retention', 'status']),
    // slos sits beside on-call: it reads the features' figures and raises events the outbox routes
    below('features-sit-below-slos', 'platform|identity|breakers|domains|notifications|releases|status|on-call', ['slos']),
    below('slos-sit-below-configuration', 'slos', ['configuration', 'retention', 'status', 'on-call']),
    // drills sit beside slos: they plan faults the breakers' code asks for through a port (BreakerFaults)
    below('features-sit-below-drills', 'platform|identity|breakers|domains|notifications|releases|status|on-call|slos', ['drills']),
    below('drills-sit-below-configuration', 'drills', ['configuration', 'retention', 'status', 'on-call', 'slos']),
    // the features may use each other's index.ts; today none needs to, and a first such arrow should be a decision
    below('domains-stand-alone', 'domains', ['notifications', 'releases']),
    below('notifications-stand-alone', 'notifications', ['domains', 'releases']),
    below('releases-stand-alone', 'releases', ['domains', 'notifications']),
    below('configuration-and-retention-stand-apart', 'configuration', ['retention']),
    below('retention-and-configuration-stand-apart', 'retention', ['configuration']),
    {
      name: 'context-through-its-index',
      severity: 'error',
      comment:
        'Another context is used only through its public index.ts (api/src/<context>/index.ts): export what you need there, or ask whether you need it',
      from: { path: CONTEXT, pathNot: TESTS },
      to: { path: CONTEXT, pathNot: ['^api/src/$1/', '^api/src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'root-through-the-indexes',
      severity: 'error',
      comment: 'The composition root (api/src/*.ts) assembles the contexts through their index.ts as well',
      from: { path: '^api/src/[^/]+\\.ts$', pathNot: TESTS },
      to: { path: CONTEXT, pathNot: ['^api/src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'nothing-imports-the-api',
      severity: 'error',
      comment: "Tools, libraries and remotes do not import the API's code: move what both need into libs/ (a place both may use)",
      // a library's integration tests may start the real API (the CLI's do)
      from: { path: '^(tools|libs|shell|mfe-[^/]+)/', pathNot: '\\.spec\\.tsx?$' },
      to: { path: '^api/' },
    },
    {
      name: 'no-test-helpers-in-production',
      severity: 'error',
      comment: 'Production code does not import tests or their helpers (test-kit files, api/test, tools/testing)',
      from: { path: '^(api/src|libs/[^/]+/src|shell/src|mfe-[^/]+/src)/', pathNot: TESTS },
      to: { path: TESTS },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.nx|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
