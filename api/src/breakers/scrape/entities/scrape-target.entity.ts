import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { ScrapedBreaker } from '../resilience4j-metrics';
import type { AbsentBreakers } from '../scraped-breakers';

/** A Prometheus endpoint the hub reads resilience4j's breakers from, leased to one replica per scrape. */
@Entity('scrape_targets')
export class ScrapeTargetEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') name!: string;
  @Column('text') url!: string;
  @Column('integer', { name: 'interval_seconds' }) intervalSeconds!: number;
  /** Sealed: the bearer token is a credential of the scraped service, never sent back. */
  @Column('text', { name: 'bearer_token_sealed', nullable: true }) bearerTokenSealed!: string | null;
  @Column('timestamptz', { name: 'next_run_at' }) nextRunAt!: Date;
  @Column('uuid', { name: 'lease_owner', nullable: true }) leaseOwner!: string | null;
  @Column('timestamptz', { name: 'lease_until', nullable: true }) leaseUntil!: Date | null;
  @Column('timestamptz', { name: 'last_scrape_at', nullable: true }) lastScrapeAt!: Date | null;
  @Column('text', { name: 'last_error', nullable: true }) lastError!: string | null;
  @Column('integer', { name: 'last_breakers', nullable: true }) lastBreakers!: number | null;
  /** The last good scrape's breakers, whose counters the next scrape's are compared with. */
  @Column('jsonb', { nullable: true }) counters!: ScrapedBreaker[] | null;
  /** The breakers of the target's service that its last good scrapes no longer exposed, on their way out. */
  @Column('jsonb', { nullable: true }) absent!: AbsentBreakers | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
