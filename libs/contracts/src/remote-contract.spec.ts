import { remoteContractProblems, type RemoteBuild } from './remote-contract';

const PROVIDED = {
  react: '19.3.1',
  'react-dom': '19.3.1',
  'react-redux': '9.3.1',
  'styled-components': '6.6.0',
  '@cbh/ui': '0.1.0',
  '@cbh/ui/charts': '0.1.0',
};

/** A dashboard build as the federation plugin writes its mf-manifest.json (trimmed to what the check reads). */
function build(change: (manifest: Record<string, unknown>) => void = () => undefined, extra: Partial<RemoteBuild> = {}): RemoteBuild {
  const manifest: Record<string, unknown> = {
    id: 'mfe_dashboard',
    name: 'mfe_dashboard',
    metaData: { name: 'mfe_dashboard', remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' }, publicPath: 'auto' },
    shared: [
      { name: 'react', version: '19.3.1', requiredVersion: '19.3.1', singleton: true },
      { name: 'react/jsx-runtime', version: '19.3.1', requiredVersion: '^19.3.1' },
      { name: 'react-redux', version: '9.3.1', requiredVersion: '^9.2.0', singleton: true },
      { name: '@cbh/ui/charts', version: '0.1.0', requiredVersion: '0.1.0', singleton: true },
    ],
    exposes: [{ id: 'mfe_dashboard:Routes', name: 'Routes', path: './Routes' }],
  };
  change(manifest);
  return {
    remote: 'mfe_dashboard',
    manifest,
    files: ['mf-manifest.json', 'remoteEntry.js', '12.ab12cd34ef.js'],
    remoteEntryGzipBytes: 8200,
    ...extra,
  };
}

it('passes a build the shell can load', () => {
  expect(remoteContractProblems(build(), PROVIDED)).toEqual([]);
});

it('refuses a build against another React major, naming it and what to build against', () => {
  const problems = remoteContractProblems(
    build((manifest) => {
      manifest.shared = [{ name: 'react', version: '18.3.1', requiredVersion: '^18.3.1', singleton: true }];
    }),
    PROVIDED,
  );
  expect(problems).toEqual([
    { rule: 'shared', message: 'it was built against react ^18.3.1, and the shell provides react 19.3.1: build it against react@19.3.1' },
  ]);
});

it('refuses a build without ./Routes, one sharing what the shell does not provide, and an entry over its budget', () => {
  const problems = remoteContractProblems(
    build(
      (manifest) => {
        manifest.exposes = [{ path: './Page' }];
        manifest.shared = [{ name: 'lodash', version: '4.17.21', requiredVersion: '^4.17.21', singleton: true }];
      },
      { remoteEntryGzipBytes: 12 * 1024 },
    ),
    PROVIDED,
  );
  expect(problems.map((problem) => problem.rule)).toEqual(['exposes-routes', 'shared', 'entry-budget']);
  expect(problems[0]!.message).toContain("add exposes: { './Routes'");
  expect(problems[1]!.message).toBe(
    'it shares lodash, which the shell does not provide: bundle it into the remote instead (take it out of shared)',
  );
  expect(problems[2]!.message).toBe("remoteEntry.js is 12.0 KB gzip, over its 10 KB budget: keep vendors in the exposed module's chunk");
});

it("refuses another remote's build, one the route table does not know, and an unreadable manifest", () => {
  expect(remoteContractProblems({ ...build(), remote: 'mfe_domains' }, PROVIDED)).toEqual([
    { rule: 'manifest', message: 'the manifest names the container "mfe_dashboard", not mfe_domains: build the remote\'s own project' },
  ]);
  expect(remoteContractProblems({ ...build(), remote: 'mfe_unknown' }, PROVIDED).map((problem) => problem.rule)).toEqual([
    'routes',
    'manifest',
  ]);
  expect(remoteContractProblems({ ...build(), manifest: null }, PROVIDED)).toEqual([
    { rule: 'manifest', message: 'mf-manifest.json is missing or not JSON: build the remote with the federation plugin (npm run build)' },
  ]);
  expect(remoteContractProblems({ ...build(), files: ['mf-manifest.json'] }, PROVIDED)).toEqual([
    { rule: 'manifest', message: "the manifest's remote entry (remoteEntry.js) is not among the build's files" },
  ]);
});
