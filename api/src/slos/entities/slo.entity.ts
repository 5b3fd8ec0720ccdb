import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { BurnRateWindow, BurnSeverity, SloIndicator, SloIndicatorKind, SloWindow } from '@cbh/contracts';

/** Since when each of an SLO's alerts fires (absent: it does not), so that each raises its event once until it clears. */
export type SloAlertState = Partial<Record<BurnSeverity, { since: string; window: BurnRateWindow; burnRate: number }>> & {
  exhausted?: { since: string };
};

/** A service level objective: a target share of good events over a rolling window, of what its indicator counts. */
@Entity('slos')
export class SloEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') name!: string;
  @Column('text', { nullable: true }) description!: string | null;
  /** numeric comes back as a string: read as a number */
  @Column('numeric', { precision: 6, scale: 3, transformer: { from: (value: string) => Number(value), to: (value: number) => value } })
  target!: number;
  @Column('text', { name: 'slo_window' }) window!: SloWindow;
  @Column('jsonb') indicator!: SloIndicator;
  /** the indicator's kind, apart, so that the counter selects each kind's SLOs by an index-friendly column */
  @Column('text') kind!: SloIndicatorKind;
  /** the service the indicator's breakers belong to, when it names one (the list's filter) */
  @Column('text', { nullable: true }) service!: string | null;
  @Column('jsonb', { default: {} }) alerts!: SloAlertState;
  /** counted over its whole window from what the hub keeps (false: not yet, or its indicator changed since) */
  @Column('boolean', { default: false }) backfilled!: boolean;
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  /** set by the changes people make, not by the alerts' state */
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt!: Date;
}
