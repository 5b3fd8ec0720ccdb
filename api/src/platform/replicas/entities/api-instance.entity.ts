import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One API process: up from its start to its last heartbeat. Rows are kept, as the API's availability record. */
@Entity('api_instances')
@Index('api_instances_last_seen_at', ['lastSeenAt'])
export class ApiInstanceEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('text') hostname!: string;
  @Column('integer') pid!: number;
  @Column('timestamptz', { name: 'started_at', default: () => 'now()' }) startedAt!: Date;
  @Column('timestamptz', { name: 'last_seen_at', default: () => 'now()' }) lastSeenAt!: Date;
  /** Set by a replica that shut down in order; a crashed one leaves it empty and just stops reporting. */
  @Column('timestamptz', { name: 'stopped_at', nullable: true }) stoppedAt!: Date | null;
}
