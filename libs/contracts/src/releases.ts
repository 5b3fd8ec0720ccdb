import { z } from 'zod';
import { RELEASE_LIMITS, releaseRemoteName } from './release-vocabulary';
import { REMOTE_NAMES } from './routes';

/* The schemas of remote releases' requests; their limits and names, which the browser uses too, are in release-vocabulary.ts. */

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
  /**
   * SLOs over this remote's loads (kind remote-loads) the canary is judged by: rolled back by itself when one burns
   * more than CANARY_SLO_BURN_FACTOR times as fast among its visitors as among the live version's.
   */
  slos: z
    .array(z.number({ message: 'must be an SLO id' }).int().positive('must be an SLO id'), { message: 'must be a list of SLO ids' })
    .max(RELEASE_LIMITS.canarySlos, `must name at most ${RELEASE_LIMITS.canarySlos} SLOs`)
    .transform((ids) => [...new Set(ids)])
    .optional(),
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
  /**
   * Not a load: an error the remote's own code threw after it rendered (caught by the shell's boundary around it, or
   * uncaught from one of its files). Always `ok: false`; bad for its version's remote-loads SLOs, but not a failed load.
   */
  afterRender: z.literal(true).optional(),
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
   * Loads the shell reported of this version, how many failed, the time to first render (ms), how many people
   * loaded it in the last half hour (who runs it now), and the errors its code threw after it rendered (not loads).
   */
  loads: { count: number; failed: number; activeVisitors: number; p50Ms: number | null; p95Ms: number | null; errorsAfterRender: number };
}

export interface ReleaseView {
  remote: string;
  /** The version served; null while the remote is served from the deployed folder. */
  liveVersionId: number | null;
  /** What Rollback goes back to. */
  previousVersionId: number | null;
  /** The canary, when one runs: its version, the share of visitors who get it, and the SLOs it is judged by. */
  canary: { versionId: number; percent: number; startedAt: string; slos: { id: number; name: string }[] } | null;
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
