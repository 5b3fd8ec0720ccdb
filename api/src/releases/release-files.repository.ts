import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** The content-addressed store of remote files: bytea rows TypeORM would write one statement per row. */
@Injectable()
export class ReleaseFilesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Stores each file not stored yet (a chunk two builds share is one row), in one statement per batch. */
  async store(manager: EntityManager, files: readonly { sha256: string; content: Buffer }[]): Promise<void> {
    for (let i = 0; i < files.length; i += 200) {
      const batch = files.slice(i, i + 200);
      await manager.query(
        `INSERT INTO remote_files (sha256, content, size)
         SELECT * FROM unnest($1::text[], $2::bytea[], $3::int[])
         ON CONFLICT (sha256) DO NOTHING`,
        [batch.map((file) => file.sha256), batch.map((file) => file.content), batch.map((file) => file.content.length)],
      );
    }
  }

  /** One file's bytes, or null. */
  async read(sha256: string): Promise<Buffer | null> {
    const rows = (await this.dataSource.query('SELECT content FROM remote_files WHERE sha256 = $1', [sha256])) as { content: Buffer }[];
    return rows[0]?.content ?? null;
  }
}
