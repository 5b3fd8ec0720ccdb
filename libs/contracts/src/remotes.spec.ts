import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkRemotesManifest, parseRemotesManifest } from './remotes';

const remote = (name: string, routes: string[]) => ({ name, entry: `/remotes/${name}/mf-manifest.json`, routes });
const issuesOf = (value: unknown) => {
  const checked = checkRemotesManifest(value);
  return checked.success ? [] : checked.issues;
};

describe('remotes manifest', () => {
  it('accepts the deployment manifest of the site', () => {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, '../../../remotes.json'), 'utf8'));
    const parsed = parseRemotesManifest(manifest);
    expect(parsed.remotes.map((r) => r.name)).toEqual([
      'mfe_learning',
      'mfe_dashboard',
      'mfe_domains',
      'mfe_users',
      'mfe_patterns',
      'mfe_status',
    ]);
  });

  it('keeps only the fields it knows', () => {
    const parsed = parseRemotesManifest({ remotes: [{ ...remote('mfe_a', ['/a']), colour: 'red' }], version: 2 });
    expect(parsed).toEqual({ remotes: [remote('mfe_a', ['/a'])] });
  });

  it('rejects a route claimed by two remotes', () => {
    expect(issuesOf({ remotes: [remote('mfe_a', ['/dashboard']), remote('mfe_b', ['/dashboard'])] })).toEqual([
      { path: '', message: 'each route belongs to exactly one remote' },
    ]);
  });

  it('rejects relative routes, bad names and remotes without routes, saying where', () => {
    expect(issuesOf({ remotes: [remote('mfe_a', ['/a', 'dashboard'])] })).toEqual([
      { path: 'remotes.0.routes.1', message: 'a route is an absolute path such as /dashboard or /circuit-breakers/:id' },
    ]);
    expect(issuesOf({ remotes: [remote('mfe_a', ['/a']), remote('MFE-A', ['/b'])] })).toEqual([
      { path: 'remotes.1.name', message: 'a container name is lower_snake_case' },
    ]);
    expect(issuesOf({ remotes: [remote('mfe_a', [])] }).map((issue) => issue.path)).toEqual(['remotes.0.routes']);
    expect(issuesOf({ remotes: [{ name: 'mfe_a', entry: '', routes: ['/a'] }] }).map((issue) => issue.path)).toEqual(['remotes.0.entry']);
  });

  it('rejects what is not a manifest at all', () => {
    for (const value of [null, [], {}, { remotes: {} }, { remotes: [null] }, { remotes: [{ name: 1, entry: 2, routes: [3] }] }])
      expect(checkRemotesManifest(value).success).toBe(false);
  });

  it('throws naming every rule broken', () => {
    expect(() => parseRemotesManifest({ remotes: [{ name: 'A', entry: '', routes: ['/a'] }] })).toThrow(
      'not a valid remotes manifest: remotes.0.name: a container name is lower_snake_case; remotes.0.entry: an entry is the URL of the remote’s mf-manifest.json',
    );
  });
});
