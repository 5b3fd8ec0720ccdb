import { z } from 'zod';
import { REMOTE_NAMES } from './routes';

/*
 * Remote releases: a remote's build uploaded as an immutable version, checked against the shell's contract
 * (remote-contract.ts), and made live, rolled back, by system_admin.
 */

export const RELEASE_LIMITS = {
  /** Files of one build at most (chunks with their .br and .gz copies). */
  files: 3000,
  /** Bytes of one build at most, before base64. */
  bytes: 40 * 1024 * 1024,
  pathLength: 200,
  /** Versions listed per remote, newest first. */
  listed: 20,
  /** Remote loads one report of a page carries at most. */
  loadsPerReport: 20,
  /** Load reports one account may send a minute, over every replica (a page sends at most one every 3 s). */
  loadReportsPerMinute: 60,
  /** Characters of a failed load's reason kept. */
  reasonLength: 300,
} as const;

/**
 * The file types a remote's build consists of, and so the only ones an upload may carry (each may come with its
 * `.br` and `.gz` copies). Nothing here is a document a browser runs script in when it is opened directly: no HTML,
 * and no SVG (a remote's build inlines its images, and an SVG opened on the hub's origin would run its script).
 */
export const RELEASE_FILE_TYPES = ['js', 'mjs', 'css', 'json', 'map', 'woff', 'woff2', 'png', 'jpg', 'webp', 'avif', 'ico', 'txt'] as const;

/** The precompressed copies a build may carry of its files, served in their place to a browser that accepts them. */
export const RELEASE_COPY_ENCODINGS = { '.br': 'br', '.gz': 'gzip' } as const;

/** Why a build may not carry a file of this path (its type), or null when it may. */
export function releaseFileRefusal(filePath: string): string | null {
  const plain = filePath.replace(/\.(br|gz)$/, '');
  const type = /\.([A-Za-z0-9]+)$/.exec(plain)?.[1];
  if (type && (RELEASE_FILE_TYPES as readonly string[]).includes(type)) return null;
  return `${filePath}: a release carries only files of the types ${RELEASE_FILE_TYPES.join(', ')} (and their .br and .gz copies)`;
}

/**
 * A remote's name as the API knows it: the federation container's (`mfe_dashboard`), also accepted as its folder's
 * (`mfe-dashboard`), the name `cbh` and the repository use.
 */
export const releaseRemoteName = (name: string) => name.replace(/-/g, '_');

/** The remotes a token or service account may release (absent: every remote its owner may), by either name. */
export const releaseRemotesSchema = z
  .array(
    z
      .string({ message: 'must be a remote name' })
      .transform(releaseRemoteName)
      .pipe(z.enum(REMOTE_NAMES, { message: `must be one of ${REMOTE_NAMES.join(', ')}` })),
    { message: `must be a list of remote names (${REMOTE_NAMES.join(', ')})` },
  )
  .max(REMOTE_NAMES.length)
  .transform((names) => [...new Set(names)]);

/** The visitor's random id, which puts each visitor on one side of a canary for good (a year's cookie). */
export const RELEASE_VISITOR_COOKIE = 'cbh.visitor';
/** The versions a system administrator pinned for their own browser, sealed by the hub. */
export const RELEASE_PINS_COOKIE = 'cbh.pins';

/** The body of an upload at most: the files base64-encoded (4/3) and their JSON around them. */
export const RELEASE_UPLOAD_MAX_BYTES = Math.ceil((RELEASE_LIMITS.bytes * 4) / 3) + 1024 * 1024;

/** A build file's path inside its folder: segments of letters, digits, '.', '_' and '-', no '..'. */
const filePath = z
  .string({ message: 'must be a string' })
  .max(RELEASE_LIMITS.pathLength, `must be at most ${RELEASE_LIMITS.pathLength} characters`)
  .regex(/^(?!.*\.\.)[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, 'must be a relative path of letters, digits, ., _ and -');

/** POST /api/releases/{remote}/versions and …/check */
export const uploadReleaseSchema = z.strictObject({
  gitCommit: z
    .string()
    .regex(/^[0-9a-f]{7,40}$/, 'must be a git commit hash (7 to 40 hex digits)')
    .optional(),
  files: z
    .array(z.strictObject({ path: filePath, content: z.base64({ message: 'must be base64' }) }), { message: 'must be a list of files' })
    .min(1, 'name at least one file')
    .max(RELEASE_LIMITS.files, `must hold at most ${RELEASE_LIMITS.files} files`),
});
export type UploadRelease = z.infer<typeof uploadReleaseSchema>;

/** POST /api/releases/{remote}/canary: version B for `percent` % of visitors, sticky per visitor. */
export const canaryReleaseSchema = z.strictObject({
  versionId: z.number({ message: 'must be a version id' }).int().positive('must be a version id'),
  percent: z
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(99, 'must be at most 99'),
});

/** POST /api/releases/{remote}/pin: a version for the caller's own browser, to preview it; null ends the pin. */
export const pinReleaseSchema = z.strictObject({
  versionId: z.number({ message: 'must be a version id' }).int().positive('must be a version id').nullable(),
});

/** A remote load as the shell reports it. */
export const remoteLoadSchema = z.strictObject({
  remote: z.enum(REMOTE_NAMES, { message: `must be one of ${REMOTE_NAMES.join(', ')}` }),
  /** The entry the shell loaded it from: names the version (/releases/<remote>/<id>/…) or the deployed folder. */
  entry: z.string().max(300),
  ok: z.boolean(),
  reason: z.string().max(RELEASE_LIMITS.reasonLength).optional(),
  /** From entering the remote's routes to its first render, ms. */
  loadMs: z.number().int().min(0).max(600_000).optional(),
});

/** POST /api/releases/loads: a page's remote loads, a few at a time. */
export const remoteLoadsSchema = z.strictObject({
  loads: z.array(remoteLoadSchema).min(1).max(RELEASE_LIMITS.loadsPerReport, `must hold at most ${RELEASE_LIMITS.loadsPerReport} loads`),
});
export type RemoteLoad = z.infer<typeof remoteLoadSchema>;

/** POST /api/releases/{remote}/promote */
export const promoteReleaseSchema = z.strictObject({
  versionId: z.number({ message: 'must be a version id' }).int().positive('must be a version id'),
});

export interface RemoteVersionView {
  id: number;
  remote: string;
  gitCommit: string | null;
  /** Who uploaded it, by name or role (never an e-mail); null once that account is gone. */
  uploadedBy: string | null;
  uploadedAt: string;
  files: number;
  bytes: number;
  entryGzipBytes: number;
  /**
   * Loads the shell reported of this version, how many failed, the time to first render (ms), and how many people
   * loaded it in the last half hour (who runs it now).
   */
  loads: { count: number; failed: number; activeVisitors: number; p50Ms: number | null; p95Ms: number | null };
}

export interface ReleaseView {
  remote: string;
  /** The version served; null while the remote is served from the deployed folder. */
  liveVersionId: number | null;
  /** What Rollback goes back to. */
  previousVersionId: number | null;
  /** The canary, when one runs: its version and the share of visitors who get it. */
  canary: { versionId: number; percent: number; startedAt: string } | null;
  updatedAt: string | null;
  /** The newest RELEASE_LIMITS.listed versions. */
  versions: RemoteVersionView[];
}

/** POST …/check: the build's problems, none when it may go live. */
export interface ReleaseCheckView {
  remote: string;
  problems: { rule: string; message: string }[];
}

/** Where a live version's files are served: immutable, so every file is cached for good. */
export const releaseFilesPath = (remote: string, versionId: number) => `/releases/${remote}/${versionId}/`;
