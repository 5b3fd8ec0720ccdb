import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One guess to elevate (a master key or a code), counted as failed from before it is judged until it succeeds;
 * the recent failures limit how often an account may guess.
 */
@Entity('elevation_attempts')
export class ElevationAttemptEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
  @Column('uuid', { name: 'user_id' }) userId!: string;
  @Column('text') method!: string;
  @Column('boolean') succeeded!: boolean;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
