import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AccountKind, UserView } from '@cbh/contracts';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('text') email!: string;
  @Column('text') role!: string;
  /**
   * A person's given name; a service account's name, so that every place naming an account to its readers (the
   * breaker journal, the activity list) names a service account by it.
   */
  @Column('text', { name: 'first_name', nullable: true }) firstName!: string | null;
  @Column('text', { name: 'last_name', nullable: true }) lastName!: string | null;
  @Column('text', { name: 'profile_image_url', nullable: true }) profileImageUrl!: string | null;
  @Column('text', { array: true, default: () => "'{}'" }) permissions!: string[];
  @Column('boolean', { name: 'is_active', default: false }) isActive!: boolean;
  @Column('timestamptz', { name: 'activated_at', nullable: true }) activatedAt!: Date | null;
  @Column('timestamptz', { name: 'last_login_at', nullable: true }) lastLoginAt!: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column('text', { name: 'password_hash', nullable: true, select: false }) passwordHash!: string | null;
  @Column('uuid', { name: 'organization_id', nullable: true }) organizationId!: string | null;
  /** 'service': a service account, which never signs in and is left out wherever people are listed or counted. */
  @Column('text', { default: 'person' }) kind!: AccountKind;
  /** Who created a service account; null for people, and once that account is deleted. */
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy!: string | null;

  /** Created on first use by the elevation feature; like the password hash, never loaded unless asked for. */
  @Column('text', { name: 'totp_secret', nullable: true, select: false }) totpSecret!: string | null;
}

type AccountProfile = Pick<UserView, 'id' | 'email' | 'role' | 'firstName' | 'lastName' | 'profileImageUrl' | 'permissions'>;

/** Who the account is and what it may do: the part every view of an account shares. */
export function profileOf(user: AccountProfile): AccountProfile {
  const { id, email, role, firstName, lastName, profileImageUrl, permissions } = user;
  return { id, email, role, firstName, lastName, profileImageUrl, permissions };
}

export function toUserView(user: UserEntity): UserView {
  return {
    ...profileOf(user),
    isActive: user.isActive,
    activatedAt: user.activatedAt?.toISOString() ?? null,
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
  };
}
