import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  AGENT_PROTOCOL_LIMITS,
  CONFIG_DOCUMENT_MAX_BYTES,
  DEFAULT_MAX_BODY_KB,
  localRemoteFolders,
  parseRemotesManifest,
  RELEASE_UPLOAD_MAX_BYTES,
} from '@cbh/contracts';

/** What every way of running the site (compose, Kubernetes, the gateway under test) must agree on, read once. */

/** The build folders of the remotes remotes.json deploys: dist/<folder>, served at /remotes/<folder>/. */
export const REMOTE_FOLDERS = localRemoteFolders(
  parseRemotesManifest(JSON.parse(readFileSync(path.resolve(__dirname, '../../remotes.json'), 'utf8'))),
);

/** The shell's build folder and the remotes': one static server each in compose. */
export const SITE_APPS = ['shell', ...REMOTE_FOLDERS];

/** The largest body the API takes on a route it does not treat apart: MAX_BODY_KB's default. */
export const DEFAULT_BODY_BYTES = DEFAULT_MAX_BODY_KB * 1024;

/** The routes that take larger bodies, each with the largest it takes: a gateway in front must let these through, and no more. */
export const LARGE_BODY_ROUTES: readonly (readonly [route: string, bytes: number])[] = [
  ['/api/import', CONFIG_DOCUMENT_MAX_BYTES],
  ['/api/agent/reports', AGENT_PROTOCOL_LIMITS.reportBytes],
  ['/api/releases/mfe_dashboard/versions', RELEASE_UPLOAD_MAX_BYTES],
  ['/api/releases/mfe_dashboard/check', RELEASE_UPLOAD_MAX_BYTES],
];
