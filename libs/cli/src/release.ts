import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  RELEASE_LIMITS,
  readRemoteBuild,
  remoteContractProblems,
  type ContractProblem,
  type ProvidedShared,
  type ReleaseView,
  type RemoteVersionView,
  type UploadRelease,
} from '@cbh/contracts';
import { CliError } from './cli-error';
import type { HubClient } from './hub-client';
import type { Progress } from './progress';

/*
 * `cbh release`: a remote's build from its dist folder checked against the shell's contract, uploaded as a version,
 * promoted and rolled back. A remote is named by its folder (mfe-domains) or its container (mfe_domains).
 */

/** The federation container's name of a remote named either way. */
export const containerOf = (remote: string) => remote.replace(/-/g, '_');
const folderOf = (remote: string) => remote.replace(/_/g, '-');

/** Every file under a folder, with its path relative to it. */
function filesUnder(root: string, dir = root): { path: string; content: Buffer }[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(root, full);
    return [{ path: path.relative(root, full).split(path.sep).join('/'), content: readFileSync(full) }];
  });
}

/** Builds the remote with the workspace's Nx (npx nx run <folder>:build), its output shown as it goes. */
export async function buildRemote(remote: string, progress: Progress): Promise<void> {
  const project = folderOf(remote);
  progress.show(`Building ${project}…`);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('npx', ['nx', 'run', `${project}:build`], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', resolve);
  }).finally(() => progress.stop());
  if (code !== 0) throw new CliError(`npx nx run ${project}:build failed (exit ${code}); nothing was sent`);
}

export interface LocalBuild {
  remote: string;
  folder: string;
  files: { path: string; content: Buffer }[];
  problems: ContractProblem[];
}

/**
 * The remote's build as `npm run build` left it (dist/<folder>), checked here against the shell's shared-versions.json
 * of the same build: the rules the hub checks again on upload.
 */
export function readBuild(remote: string, dist = 'dist'): LocalBuild {
  const folder = path.join(dist, folderOf(remote));
  let files: { path: string; content: Buffer }[];
  try {
    files = filesUnder(folder);
  } catch {
    throw new CliError(`No build of ${remote} in ${folder}: run npm run build (or npx nx run ${folderOf(remote)}:build) first`);
  }
  const bytes = files.reduce((sum, file) => sum + file.content.length, 0);
  if (files.length > RELEASE_LIMITS.files || bytes > RELEASE_LIMITS.bytes) {
    throw new CliError(
      `${folder} holds ${files.length} files, ${bytes} bytes: a release takes at most ${RELEASE_LIMITS.files} files, ${RELEASE_LIMITS.bytes} bytes`,
    );
  }
  let provided: ProvidedShared;
  try {
    provided = JSON.parse(readFileSync(path.join(dist, 'shell', 'shared-versions.json'), 'utf8')) as ProvidedShared;
  } catch {
    throw new CliError(`No ${path.join(dist, 'shell', 'shared-versions.json')}: build the shell too, the check reads what it provides`);
  }
  const byPath = new Map(files.map((file) => [file.path, file.content]));
  const problems = remoteContractProblems(
    readRemoteBuild(containerOf(remote), byPath, (bytes) => gzipSync(bytes, { level: 9 }).length),
    provided,
  );
  return { remote: containerOf(remote), folder, files, problems };
}

export const problemLines = (problems: readonly ContractProblem[]) => problems.map((problem) => `  ${problem.rule}: ${problem.message}`);

/** Uploads a checked build as a new version. */
export async function pushBuild(hub: HubClient, build: LocalBuild, gitCommit?: string): Promise<RemoteVersionView> {
  const body: UploadRelease = {
    ...(gitCommit ? { gitCommit } : {}),
    files: build.files.map((file) => ({ path: file.path, content: file.content.toString('base64') })),
  };
  return hub.json<RemoteVersionView>(`/api/releases/${build.remote}/versions`, {
    method: 'POST',
    body: JSON.stringify(body),
    contentType: 'application/json',
  });
}

export async function releaseOf(hub: HubClient, remote: string): Promise<ReleaseView> {
  const release = (await hub.json<ReleaseView[]>('/api/releases')).find((entry) => entry.remote === containerOf(remote));
  if (!release) throw new CliError(`The hub has no remote named ${containerOf(remote)}`);
  return release;
}

/** One line per remote: what is live, what rollback goes back to, the newest version. */
export function statusLines(releases: readonly ReleaseView[]): string[] {
  return releases.map((release) => {
    const live = release.liveVersionId === null ? 'the deployed folder' : `version ${release.liveVersionId}`;
    const back = release.previousVersionId === null ? '' : `, rollback to ${release.previousVersionId}`;
    const canary = release.canary ? `, canary ${release.canary.versionId} to ${release.canary.percent} %` : '';
    const newest = release.versions[0];
    const latest = newest ? `, newest ${newest.id} (${newest.gitCommit ?? 'no commit'}, ${newest.uploadedAt})` : '';
    return `${release.remote}: live ${live}${back}${canary}${latest}`;
  });
}
