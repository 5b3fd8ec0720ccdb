import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

// routing goes through one facade; the agent's stricter rule replaces the general one, so both name these paths
const ROUTER_IMPORTS = [
  { name: 'react-router-dom', message: 'Import routing from @cbh/router, the shared routing facade.' },
  { name: 'react-router', message: 'Import routing from @cbh/router, the shared routing facade.' },
];

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', '.nx/**', 'test-results/**', 'playwright-report/**', '.test-results/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['*/src/**/*.{ts,tsx}', 'libs/*/src/**/*.{ts,tsx}', 'api/test/**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          banTransitiveDependencies: false,
          depConstraints: [
            { sourceTag: 'scope:shell', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:mfe', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:shared'] },
            // the command-line client speaks the API's contract and nothing of the API's or screens' code
            { sourceTag: 'scope:cli', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:ui', 'type:data', 'type:util', 'type:contracts'] },
            {
              sourceTag: 'type:feature',
              onlyDependOnLibsWithTags: ['type:feature', 'type:ui', 'type:data', 'type:util', 'type:contracts'],
            },
            { sourceTag: 'type:ui', onlyDependOnLibsWithTags: ['type:ui', 'type:util', 'type:contracts'] },
            { sourceTag: 'type:data', onlyDependOnLibsWithTags: ['type:data', 'type:util', 'type:contracts'] },
            // utilities (the breaker engine, the router facade, the pattern simulations) use the shared vocabulary
            // and other utilities only (the microservices simulation runs real breakers)
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:contracts'] },
            // contracts is the bottom of the graph: it imports no other project
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
          ],
        },
      ],
    },
  },
  {
    files: ['*/src/**/*.{ts,tsx}', 'libs/*/src/**/*.{ts,tsx}'],
    ignores: ['libs/router/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ROUTER_IMPORTS,
        },
      ],
    },
  },
  {
    // the browser carries no schema library: screens judge drafts with the zod-free vocabulary modules of
    // @cbh/contracts (zod alone is 13 KB gzip, a quarter of a route's first download); the API's schemas judge again
    files: ['shell/src/**/*.{ts,tsx}', 'mfe-*/src/**/*.{ts,tsx}', 'libs/{ui,api-client,breaker-widgets}/src/**/*.{ts,tsx}'],
    ignores: ['**/*.spec.{ts,tsx}', '**/*.test-kit.{ts,tsx}', '**/test-kit.tsx', '**/*-test-harness.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...ROUTER_IMPORTS,
            { name: 'zod', allowTypeImports: true, message: 'Browser code judges drafts without zod: the API holds the schemas.' },
          ],
          patterns: [
            {
              group: ['@cbh/contracts'],
              importNamePattern: 'Schema$',
              allowTypeImports: true,
              message: 'A schema brings zod into the browser: judge the draft with the zod-free vocabulary of @cbh/contracts.',
            },
          ],
        },
      ],
    },
  },
  {
    // the agent runs inside other people's services: it speaks the contract and drives breakers, nothing more
    files: ['libs/agent/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ROUTER_IMPORTS,
          patterns: [
            {
              group: ['@cbh/*', '!@cbh/contracts', '!@cbh/breaker'],
              message: 'The agent may import only @cbh/contracts and @cbh/breaker of this repository.',
            },
          ],
        },
      ],
    },
  },
  {
    // the browser tests take their test from e2e/support/test.ts, which closes the contexts a test opens
    files: ['e2e/**/*.ts'],
    ignores: ['e2e/support/test.ts', 'e2e/playwright.config.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message: 'Import test from e2e/support/test.ts: it closes the browser contexts a test leaves open.',
            },
          ],
        },
      ],
    },
  },
  {
    // one database style: services and controllers use TypeORM repositories; SQL lives in a *.repository.ts with a typed result
    files: ['api/src/**/*.service.ts', 'api/src/**/*.controller.ts', 'api/src/**/*.gateway.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='query']",
          message: 'Raw SQL belongs in a *.repository.ts with a typed result.',
        },
      ],
    },
  },
  {
    rules: { '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }] },
  },
  {
    // a file a reader can hold in mind, tests included: split a longer one along its seams, with what its parts
    // share in a *.test-kit.ts beside them (generated migrations aside)
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    ignores: ['**/migrations/**'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    files: ['**/*.cjs', '**/webpack.config.js', 'jest.config.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
