/** The smallest dashboard build the contract check takes: its manifest, its entry, and a chunk saying `marker`. */
export function dashboardBuild(marker: string) {
  const manifest = {
    id: 'mfe_dashboard',
    name: 'mfe_dashboard',
    metaData: { name: 'mfe_dashboard', remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' }, publicPath: 'auto' },
    shared: [{ name: 'react', version: '19.3.1', requiredVersion: '19.3.1', singleton: true }],
    exposes: [{ id: 'mfe_dashboard:Routes', name: 'Routes', path: './Routes' }],
  };
  const files: Record<string, string> = {
    'mf-manifest.json': JSON.stringify(manifest),
    'remoteEntry.js': 'var mfe_dashboard;',
    [`${marker}.js`]: `console.log(${JSON.stringify(marker)})`,
  };
  return { files: Object.entries(files).map(([path, content]) => ({ path, content: Buffer.from(content).toString('base64') })) };
}

/** The entry /remotes.json gives for a version of the dashboard. */
export const dashboardEntry = (versionId: number) => `/releases/mfe_dashboard/${versionId}/mf-manifest.json`;
