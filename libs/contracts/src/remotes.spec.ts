import { readFileSync } from 'node:fs';
import path from 'node:path';
import { remotesManifestSchema } from './remotes';

const remote = (name: string, routes: string[]) => ({ name, entry: `/remotes/${name}/mf-manifest.json`, routes });

describe('remotes manifest', () => {
  it('accepts the deployment manifest of the site', () => {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, '../../../remotes.json'), 'utf8'));
    const parsed = remotesManifestSchema.parse(manifest);
    expect(parsed.remotes.map((r) => r.name)).toEqual(['mfe_learning', 'mfe_dashboard', 'mfe_domains', 'mfe_users', 'mfe_patterns']);
  });

  it('rejects a route claimed by two remotes', () => {
    const result = remotesManifestSchema.safeParse({
      remotes: [remote('mfe_a', ['/dashboard']), remote('mfe_b', ['/dashboard'])],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('each route belongs to exactly one remote');
  });

  it('rejects relative routes, bad names and remotes without routes', () => {
    expect(remotesManifestSchema.safeParse({ remotes: [remote('mfe_a', ['dashboard'])] }).success).toBe(false);
    expect(remotesManifestSchema.safeParse({ remotes: [remote('MFE-A', ['/a'])] }).success).toBe(false);
    expect(remotesManifestSchema.safeParse({ remotes: [remote('mfe_a', [])] }).success).toBe(false);
  });
});
