import { Injectable } from '@nestjs/common';
import { RELEASE_COPY_ENCODINGS } from '@cbh/contracts';
import { ReleaseFilesRepository } from './release-files.repository';
import { ReleaseState } from './release-state.service';

/** Immutable files kept in each replica's memory at most (bytes): a version's files never change. */
const CACHE_BYTES = 64 * 1024 * 1024;

/** A release file as it is sent: its bytes, their encoding, and who may cache them. */
export interface ServedFile {
  content: Buffer;
  encoding: 'br' | 'gzip' | null;
  /** 'everyone': a live, previous or canary version; 'pinned': one only this browser pinned, cached by it alone. */
  audience: 'everyone' | 'pinned';
}

/**
 * The files of released versions, served by exact path from the content-addressed store through a per-replica
 * cache of immutable bytes (keyed by their hash), and only for a version this browser is served (ReleaseState).
 */
@Injectable()
export class ReleaseFileStore {
  private readonly cache = new Map<string, Buffer>();
  private cachedBytes = 0;

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
    const accepts = (coding: string) => new RegExp(`(^|[,\\s])${coding}(;q=(?!0(\\.0*)?\\b)[\\d.]+)?($|[,\\s;])`).test(acceptEncoding);
    const choices: [string, 'br' | 'gzip' | null][] = [
      ...(accepts('br') ? ([[`${filePath}.br`, 'br']] as [string, 'br'][]) : []),
      ...(accepts('gzip') ? ([[`${filePath}.gz`, 'gzip']] as [string, 'gzip'][]) : []),
      [filePath, null],
    ];
    for (const [candidate, encoding] of choices) {
      const sha = files[candidate];
      if (!sha) continue;
      const content = await this.bytes(sha);
      if (content) return { content, encoding, audience };
    }
    return null;
  }

  private async bytes(sha256: string): Promise<Buffer | null> {
    const hit = this.cache.get(sha256);
    if (hit) {
      // most recently used last, so the oldest go first
      this.cache.delete(sha256);
      this.cache.set(sha256, hit);
      return hit;
    }
    const content = await this.files.read(sha256);
    if (!content) return null;
    this.cache.set(sha256, content);
    this.cachedBytes += content.length;
    for (const [key, value] of this.cache) {
      if (this.cachedBytes <= CACHE_BYTES) break;
      this.cache.delete(key);
      this.cachedBytes -= value.length;
    }
    return content;
  }
}
