import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Which version of a remote is live, and which one Rollback goes back to. */
@Entity('remote_releases')
export class RemoteReleaseEntity {
  @PrimaryColumn('text') remote!: string;
  @Column('integer', { name: 'live_version_id', nullable: true }) liveVersionId!: number | null;
  @Column('integer', { name: 'previous_version_id', nullable: true }) previousVersionId!: number | null;
  /** The version a share of visitors gets instead of the live one, and how large a share (percent). */
  @Column('integer', { name: 'canary_version_id', nullable: true }) canaryVersionId!: number | null;
  @Column('integer', { name: 'canary_percent', default: 0 }) canaryPercent!: number;
  @Column('timestamptz', { name: 'canary_started_at', nullable: true }) canaryStartedAt!: Date | null;
  /** The SLOs the canary is judged by (remote-loads SLOs of this remote); empty without a canary. */
  @Column('integer', { name: 'canary_slo_ids', array: true, default: () => "'{}'" }) canarySloIds!: number[];
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  @Column('uuid', { name: 'updated_by', nullable: true }) updatedBy!: string | null;
}
