import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A failed sign-in, under a hash of what it is counted against (client address and e-mail, or the address alone). */
@Entity('sign_in_attempts')
export class SignInAttemptEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
  @Column('text', { name: 'key_hash' }) keyHash!: string;
  @Column('timestamptz', { default: () => 'now()' }) at!: Date;
}
