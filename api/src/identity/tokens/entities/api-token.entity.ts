import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ApiTokenView } from '@cbh/contracts';

@Entity('api_tokens')
export class ApiTokenEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('uuid', { name: 'user_id' }) userId!: string;
  @Column('text') name!: string;
  /** SHA-256 of the whole token, hex: the secret itself is shown once and never stored. */
  @Column('text', { name: 'token_hash' }) tokenHash!: string;
  @Column('text') prefix!: string;
  @Column('text', { array: true }) permissions!: string[];
  /** The remotes it may release; null: every remote its owner may. */
  @Column('text', { array: true, nullable: true }) remotes!: string[] | null;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt!: Date | null;
  @Column('text', { name: 'last_used_from', nullable: true }) lastUsedFrom!: string | null;
}

export function toTokenView(token: ApiTokenEntity): ApiTokenView {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    permissions: token.permissions,
    remotes: token.remotes,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    lastUsedFrom: token.lastUsedFrom,
  };
}
