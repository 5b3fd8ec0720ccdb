import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { BadRequestException, UnprocessableEntityException } from '@nestjs/common';
import {
  RELEASE_COPY_ENCODINGS,
  RELEASE_LIMITS,
  readRemoteBuild,
  releaseFileRefusal,
  remoteContractProblems,
  type ContractProblem,
  type ProvidedShared,
  type UploadRelease,
} from '@cbh/contracts';

export interface DecodedBuild {
  files: { path: string; content: Buffer; sha256: string }[];
  problems: ContractProblem[];
  entryGzipBytes: number;
}

/**
 * Why a build's `.br` or `.gz` copies may not be kept, or null: each is served in place of its file to a browser that
 * accepts it, so it must be a copy of a file of the build (the one the contract check read) and decompress to exactly
 * its bytes. Decompression stops one byte past the file's size, so a copy that would inflate without end costs
 * nothing.
 */
function copyRefusal(files: readonly { path: string; content: Buffer }[], byPath: ReadonlyMap<string, Buffer>): string | null {
  for (const file of files) {
    const suffix = Object.keys(RELEASE_COPY_ENCODINGS).find((ending) => file.path.endsWith(ending));
    if (!suffix) continue;
    const original = byPath.get(file.path.slice(0, -suffix.length));
    if (!original)
      return `${file.path}: a compressed copy must sit beside its file, and the build has no ${file.path.slice(0, -suffix.length)}`;
    let inflated: Buffer;
    try {
      const limit = { maxOutputLength: original.length + 1 };
      inflated = suffix === '.br' ? brotliDecompressSync(file.content, limit) : gunzipSync(file.content, limit);
    } catch {
      inflated = Buffer.alloc(0);
    }
    if (!inflated.equals(original)) {
      return `${file.path}: a compressed copy must decompress to exactly the bytes of ${file.path.slice(0, -suffix.length)}, and this one does not`;
    }
  }
  return null;
}

/**
 * A build decoded, bounded and checked: only the file types a remote's build consists of (a refusal is a 422
 * naming the file and the rule), compressed copies that match their files, and the shell's contract.
 */
export function decodeBuild(remote: string, body: UploadRelease, provided: ProvidedShared | null): DecodedBuild {
  const files = body.files.map(({ path: filePath, content }) => {
    const bytes = Buffer.from(content, 'base64');
    return { path: filePath, content: bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  });
  const total = files.reduce((sum, file) => sum + file.content.length, 0);
  if (total > RELEASE_LIMITS.bytes) throw new BadRequestException(`files: the build is ${total} bytes, more than ${RELEASE_LIMITS.bytes}`);
  if (new Set(files.map((file) => file.path)).size !== files.length) throw new BadRequestException('files: a path is given twice');
  const refused = files.map((file) => releaseFileRefusal(file.path)).filter((refusal) => refusal !== null);
  if (refused.length > 0) {
    const more = refused.length > 5 ? `; and ${refused.length - 5} more` : '';
    throw new UnprocessableEntityException(`The build of ${remote} is refused: ${refused.slice(0, 5).join('; ')}${more}`);
  }
  const byPath = new Map(files.map((file) => [file.path, file.content]));
  const copy = copyRefusal(files, byPath);
  if (copy) throw new UnprocessableEntityException(`The build of ${remote} is refused: ${copy}`);
  const build = readRemoteBuild(remote, byPath, (bytes) => gzipSync(bytes, { level: 9 }).length);
  const problems: ContractProblem[] = provided
    ? remoteContractProblems(build, provided)
    : [{ rule: 'shared', message: "the shell's shared-versions.json is not deployed beside it: build and deploy the shell first" }];
  return { files, problems, entryGzipBytes: build.remoteEntryGzipBytes ?? 0 };
}
