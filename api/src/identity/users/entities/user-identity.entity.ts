import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** An OpenID Connect identity (the provider's issuer and its `sub` there) bound to one account. */
@Entity('user_identities')
export class UserIdentityEntity {
  @PrimaryColumn('text') issuer!: string;
  @PrimaryColumn('text') subject!: string;
  @Column('uuid', { name: 'user_id' }) userId!: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
