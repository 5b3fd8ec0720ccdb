import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ContractProblem } from '@cbh/contracts';

/** A remote's build, uploaded once and never changed: its files by path, each the SHA-256 of a remote_files row. */
@Entity('remote_versions')
export class RemoteVersionEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') remote!: string;
  @Column('text', { name: 'git_commit', nullable: true }) gitCommit!: string | null;
  @Column('uuid', { name: 'uploaded_by', nullable: true }) uploadedBy!: string | null;
  @Column('timestamptz', { name: 'uploaded_at', default: () => 'now()' }) uploadedAt!: Date;
  @Column('jsonb') files!: Record<string, string>;
  @Column('bigint', { transformer: { from: (value: string) => Number(value), to: (value: number) => value } }) bytes!: number;
  @Column('integer', { name: 'entry_gzip_bytes' }) entryGzipBytes!: number;
  /** The contract check it passed: its problems (none). */
  @Column('jsonb') report!: { problems: ContractProblem[] };
}
