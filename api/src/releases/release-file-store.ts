import { Injectable } from '@nestjs/common';
import { RELEASE_COPY_ENCODINGS } from '@cbh/contracts';
import { acceptedCopy, type CopyEncoding, KeptBytes } from '../platform';
import { ReleaseFilesRepository } from './release-files.repository';
import { ReleaseState } from './release-state.service';

/** A release file as it is sent: its bytes, their encoding, and who may cache them. */
export interface ServedFile {
  content: Buffer;
  encoding: CopyEncoding | null;
  /** 'everyone': a live, previous or canary version; 'pinned': one only this browser pinned, cached by it alone. */
  audience: 'everyone' | 'pinned';
}

/**
 * The files of released versions, served by exact path from the content-addressed store through a per-replica
 * cache of immutable bytes (keyed by their hash), and only for a version this browser is served (ReleaseState).
 */
@Injectable()
export class ReleaseFileStore {
  /** A version's files never change: their bytes by hash, kept in this replica's memory. */
  private readonly cache = new KeptBytes<Buffer>((bytes) => bytes.length);

  constructor(
    private readonly state: ReleaseState,
    private readonly files: ReleaseFilesRepository,
  ) {}

  /**
   * A file of a version this browser is served, under its own remote's name: the precompressed copy the client
   * accepts when the build has one (checked at upload to hold the same bytes). A compressed copy is never a file of
   * its own.
   */
  async file(
    remote: string,
    versionId: number,
    filePath: string,
    acceptEncoding: string,
    pins: Record<string, number>,
  ): Promise<ServedFile | null> {
    const audience = this.state.servable(remote, versionId, pins);
    if (!audience || Object.keys(RELEASE_COPY_ENCODINGS).some((suffix) => filePath.endsWith(suffix))) return null;
    const files = await this.state.filesOf(remote, versionId);
    if (!files) return null;
    // the copies the client accepts, the preferred first, while their bytes are found; else the file as it is
    let copies = Object.entries(RELEASE_COPY_ENCODINGS).filter(([suffix]) => files[filePath + suffix]);
    const preferred = () =>
      acceptedCopy(
        acceptEncoding,
        copies.map(([, coding]) => coding),
      );
    for (let encoding = preferred(); encoding; encoding = preferred()) {
      const [suffix] = copies.find(([, coding]) => coding === encoding)!;
      const copied = await this.bytes(files[filePath + suffix]!);
      if (copied) return { content: copied, encoding, audience };
      copies = copies.filter(([, coding]) => coding !== encoding);
    }
    const content = files[filePath] ? await this.bytes(files[filePath]) : null;
    return content ? { content, encoding: null, audience } : null;
  }

  private async bytes(sha256: string): Promise<Buffer | null> {
    const hit = this.cache.get(sha256);
    if (hit) return hit;
    const content = await this.files.read(sha256);
    if (content) this.cache.keep(sha256, content);
    return content;
  }
}
