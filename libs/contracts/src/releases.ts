import { z } from 'zod';

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
} as const;

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
}

export interface ReleaseView {
  remote: string;
  /** The version served; null while the remote is served from the deployed folder. */
  liveVersionId: number | null;
  /** What Rollback goes back to. */
  previousVersionId: number | null;
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
