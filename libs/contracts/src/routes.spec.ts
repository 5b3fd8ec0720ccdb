import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkRemotesManifest, parseRemotesManifest } from './remotes';
import { canOpen, REMOTE_NAMES, ROUTE_TABLE, ROUTES, routesOf } from './routes';

const deployed = parseRemotesManifest(JSON.parse(readFileSync(path.join(__dirname, '../../../remotes.json'), 'utf8')));

describe('route table', () => {
  it('names the remotes of the deployment manifest, in its order', () => {
    expect(deployed.remotes.map((remote) => remote.name)).toEqual([...REMOTE_NAMES]);
  });

  it.each(REMOTE_NAMES)('gives %s exactly the routes the deployment manifest lists for it, in its order', (name) => {
    const listed = deployed.remotes.find((remote) => remote.name === name)?.routes;
    expect(listed).toEqual(routesOf(name).map((route) => route.path));
  });

  it('is a valid manifest itself: absolute paths, each owned by one remote', () => {
    const manifest = {
      remotes: REMOTE_NAMES.map((name) => ({
        name,
        entry: `/remotes/${name}/mf-manifest.json`,
        routes: routesOf(name).map((route) => route.path),
      })),
    };
    expect(checkRemotesManifest(manifest).success).toBe(true);
    expect(ROUTE_TABLE.every((route) => route.title.length > 0)).toBe(true);
  });

  it('opens a page to the accounts holding its permission and role', () => {
    const viewer = { role: 'viewer', permissions: ['dashboard_view'] };
    const manager = { role: 'admin', permissions: ['user_management', 'system_admin'] };
    const superAdmin = { role: 'super_admin', permissions: [] };
    expect(canOpen(null, ROUTES.dashboard)).toBe(true);
    expect(canOpen(viewer, ROUTES.users)).toBe(false);
    expect(canOpen(manager, ROUTES.users)).toBe(true);
    expect(canOpen(superAdmin, ROUTES.users)).toBe(true);
    expect(canOpen(null, ROUTES.coreLogic)).toBe(false);
    expect(canOpen(manager, ROUTES.coreLogic)).toBe(false);
    expect(canOpen(superAdmin, ROUTES.coreLogic)).toBe(true);
    expect(canOpen(null, ROUTES.domains)).toBe(false);
    expect(canOpen(manager, ROUTES.domains)).toBe(false);
    expect(canOpen({ role: 'admin', permissions: ['domain_management'] }, ROUTES.domains)).toBe(true);
  });

  it('gives the scrape targets to the dashboard remote, for circuit_breaker_admin holders only', () => {
    expect(routesOf('mfe_dashboard').map((route) => route.path)).toContain('/scrape-targets');
    expect(canOpen({ role: 'operator', permissions: ['circuit_breaker_view', 'circuit_breaker_operate'] }, ROUTES.scrapeTargets)).toBe(
      false,
    );
    expect(canOpen({ role: 'operator', permissions: ['circuit_breaker_admin'] }, ROUTES.scrapeTargets)).toBe(true);
  });

  it('opens each settings page to its own permission, not user_management', () => {
    const systemAdmin = { role: 'viewer', permissions: ['system_admin'] };
    const organisationAdmin = { role: 'admin', permissions: ['organization_admin'] };
    const manager = { role: 'admin', permissions: ['user_management'] };
    expect([ROUTES.systemSettings, ROUTES.releases].every((route) => canOpen(systemAdmin, route))).toBe(true);
    expect(canOpen(systemAdmin, ROUTES.organisationSettings)).toBe(false);
    expect(canOpen(organisationAdmin, ROUTES.organisationSettings)).toBe(true);
    expect(canOpen(organisationAdmin, ROUTES.releases)).toBe(false);
    expect([ROUTES.organisationSettings, ROUTES.systemSettings, ROUTES.releases].some((route) => canOpen(manager, route))).toBe(false);
  });
});
