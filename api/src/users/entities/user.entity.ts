import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { UserView } from '@cbh/contracts';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column('text')
  email!: string;

  @Column('text')
  role!: string;

  @Column('text', { name: 'first_name', nullable: true })
  firstName!: string | null;

  @Column('text', { name: 'last_name', nullable: true })
  lastName!: string | null;

  @Column('text', { name: 'profile_image_url', nullable: true })
  profileImageUrl!: string | null;

  @Column('text', { array: true, default: () => "'{}'" })
  permissions!: string[];

  @Column('boolean', { name: 'is_active', default: false })
  isActive!: boolean;

  @Column('timestamptz', { name: 'activated_at', nullable: true })
  activatedAt!: Date | null;

  @Column('timestamptz', { name: 'last_login_at', nullable: true })
  lastLoginAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column('text', { name: 'password_hash', nullable: true, select: false })
  passwordHash!: string | null;

  @Column('uuid', { name: 'organization_id', nullable: true })
  organizationId!: string | null;

  /** Created on first use by the elevation feature; like the password hash, never loaded unless asked for. */
  @Column('text', { name: 'totp_secret', nullable: true, select: false })
  totpSecret!: string | null;
}

export function toUserView(user: UserEntity): UserView {
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    firstName: user.firstName,
    lastName: user.lastName,
    profileImageUrl: user.profileImageUrl,
    permissions: user.permissions,
    isActive: user.isActive,
    activatedAt: user.activatedAt?.toISOString() ?? null,
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
  };
}
