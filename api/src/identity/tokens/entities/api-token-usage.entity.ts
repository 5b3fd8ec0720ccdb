import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Requests one token made in one minute, summed over every replica (the rate limit's shared count). */
@Entity('api_token_usage')
export class ApiTokenUsageEntity {
  @PrimaryColumn('uuid', { name: 'token_id' }) tokenId!: string;
  @PrimaryColumn('timestamptz', { name: 'window_start' }) windowStart!: Date;
  @Column('integer') requests!: number;
}
