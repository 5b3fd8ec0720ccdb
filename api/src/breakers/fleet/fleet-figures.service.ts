import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  AGENT_PROTOCOL_LIMITS,
  AGENT_STALE_PERIODS,
  type BreakerInstancesPage,
  type BreakerOverride,
  type BreakerStateName,
  type BreakerStats,
  type ServerMessage,
} from '@cbh/contracts';
import type { BreakerConfigEntity } from '../entities/breaker-config.entity';
import { ClusterLeases, InstanceRegistry, PeriodicWork, RealtimeBus, type Repeating } from '../../platform';
import { FleetCatalog } from './fleet-catalog.service';
import { FleetRepository } from './fleet.repository';
import { HeldInstances } from './held-instances';
import { breakerFigures, isStale, spanOf, type InstanceRow } from './instance-periods';

/** How often the instances' figures are read again: well inside the wall's 2 s update, so a report shows within 3 s. */
export const FIGURES_EVERY_MS = 500;
/**
 * Instances silent this long are listed, as stale, then forgotten (their rows deleted): a service that renames its
 * instances at every deploy leaves no rows behind for longer.
 */
const LISTED_FOR_MS = 10 * 60_000;

/** A scraped breaker's override is the one its service set (the hub sets none); an agent's, the hub's. */
const overrideOf = (config: BreakerConfigEntity, first: InstanceRow | undefined): BreakerOverride =>
  config.source === 'scrape' ? (first?.override ?? 'none') : config.override;

/** The figures of a breaker no instance reports for. */
const noFigures = (config: BreakerConfigEntity, now: number): BreakerStats =>
  breakerFigures(config.id, overrideOf(config, undefined), [], now).stats;

/**
 * Until when an instance's row still changes its breaker's figures as time passes (its periods leave the window,
 * it turns stale); after that the figures stay as they are until a report or its forgetting changes them.
 */
const movingUntil = (row: InstanceRow) =>
  row.reportedAt + Math.max(spanOf(row.periodMs), AGENT_STALE_PERIODS * row.periodMs) + 2 * FIGURES_EVERY_MS;

/** One breaker's figures as last merged, and what they were merged from. */
interface Merged {
  config: BreakerConfigEntity;
  stats: BreakerStats;
  /** The figures must be merged again at each read until then (ms); 0 on a replica that reads them merged. */
  movingUntil: number;
  /** While merging: the figures as JSON, and what of them the others must hear at once (see headlineOf). */
  json?: string;
  headline?: string;
}

/**
 * How often at most a breaker's figures are written for the other replicas while only their counts and latencies
 * move (they send them to the wall every METRICS_UPDATE_INTERVAL_MS): a thousand scraped breakers whose periods leave
 * the window at every read would otherwise be a thousand rows written and read twice a second.
 */
const FIGURES_WRITTEN_EVERY_MS = 2000;

/** How often the merger asks whether other replicas run, to write the figures only while one does (ms). */
const OTHERS_CHECKED_EVERY_MS = 5000;

/** What of a breaker's figures the other replicas are told at once: its state, override, instances and last move. */
const headlineOf = ({ state, override, lastTransitionAt, instances, replicas }: BreakerStats) =>
  `${state} ${override} ${lastTransitionAt} ${instances?.open}/${instances?.total}/${instances?.stale}/${instances?.bad} ${replicas?.open}/${replicas?.total}`;

/** What this replica does at each read: it merges the instance rows for the cluster, or reads the merged figures. */
type Part = 'merging' | 'following';

/**
 * The figures of the agent and scraped breakers, from what every instance last reported to any replica
 * (breaker_instances), so the wall, GET /api/metrics/latest and the breaker page of every replica show the same sums.
 *
 * The instance rows are read and merged by one replica for the cluster, the holder of the cluster role `fleet.figures`:
 * every FIGURES_EVERY_MS it reads only the rows written since its last read (written_by), keeps each instance's row
 * here, merges again only the breakers whose rows changed or whose figures still move with time (periods leaving the
 * window, an instance turning stale), and writes the figures that changed to fleet_figures. Every other replica reads
 * from fleet_figures only the figures written since its last read, when the merger says it wrote some and as often
 * besides: a fleet's rows cost one replica's reads, not every replica's, and a breaker whose instances all fell
 * silent costs nothing.
 */
@Injectable()
export class FleetFigures implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(FleetFigures.name);
  private computed = new Map<number, Merged>();
  /** While merging: each breaker's instances as last read, stale ones included, with their sums (see HeldInstances). */
  private readonly rows = new Map<number, HeldInstances>();
  /** While merging: each breaker's figures as last written to fleet_figures, and when. */
  private readonly written = new Map<number, { json: string; headline: string; at: number }>();
  private part: Part = 'following';
  /** While merging: whether another replica runs to read the figures written (asked every OTHERS_CHECKED_EVERY_MS). */
  private others = true;
  private othersCheckedAt = 0;
  /** While merging: the breakers whose rows changed since the last merge that ended (see merge). */
  private readonly unmerged = new Set<number>();
  /** The horizon of the last read (see FleetRepository.instancesWrittenSince). */
  private horizon = '0';
  private reading?: Repeating;
  private failures = 0;
  private lastRewrite = 0;

  constructor(
    private readonly work: PeriodicWork,
    private readonly repository: FleetRepository,
    private readonly catalog: FleetCatalog,
    private readonly bus: RealtimeBus,
    private readonly leases: ClusterLeases,
    private readonly replicas: InstanceRegistry,
  ) {}

  onModuleInit() {
    // refresh() reports its own failures: the first of a run, and the recovery
    this.reading = this.work.every(FIGURES_EVERY_MS, () => this.refresh());
    this.bus.subscribeInternal('fleet-figures', () => {
      if (this.part === 'following') void this.reading?.runAgain();
    });
    // a replica that starts to follow reads every figure: the merger writes them all again, now
    this.bus.subscribeInternal('fleet-figures-wanted', () => {
      if (this.part !== 'merging') return;
      this.others = true;
      this.othersCheckedAt = Date.now();
      this.written.clear();
      void this.reading?.runAgain();
    });
  }

  onModuleDestroy() {
    void this.reading?.stop();
  }

  /** Merges the rows written since the last read, or reads the figures merged since, as this replica's part is now. */
  private async refresh(now = Date.now()): Promise<void> {
    try {
      await this.catalog.ready();
      const part: Part = this.leases.holds('fleet.figures', now) ? 'merging' : 'following';
      if (part !== this.part) {
        // a new part starts from every row: the horizon of one table means nothing in the other
        this.part = part;
        this.horizon = '0';
        this.rows.clear();
        this.written.clear();
        this.lastRewrite = 0;
      }
      // a hub without agent or scraped breakers has no rows nor figures to read: it asks the database nothing (the
      // horizon stays, so the rows of a first report written meanwhile are read once its breakers are in the catalog)
      if (this.catalog.size === 0 && this.rows.size === 0 && this.computed.size === 0) return;
      const computed = part === 'merging' ? await this.merge(now) : await this.follow(now);
      this.announceMoves(this.computed, computed, now);
      this.computed = computed;
      if (this.failures > 0) this.logger.log(`instance figures read again after ${this.failures} failed reads`);
      this.failures = 0;
    } catch (error) {
      if (this.failures++ === 0) this.logger.warn(`instance figures not read: ${(error as Error).message}`);
    }
  }

  /** The holder's read: the instance rows written since the last one, merged, and the changed figures written. */
  private async merge(now: number): Promise<Map<number, Merged>> {
    // rows brought up to date in place are this merge's changes, and stay so until one merge ends: a merge that fails
    // after some (its read of whole rows refused) leaves them for the next, which reads them as already known
    const changed = this.unmerged;
    const read = await this.repository.instancesWrittenSince(
      this.horizon,
      now,
      (configId, instance) => this.rows.get(configId)?.get(instance),
      (change, newest) => {
        const taken = this.rows.get(change.configId)?.reported(change, newest, now) === true;
        if (taken) changed.add(change.configId);
        return taken;
      },
    );
    for (const row of read.rows) {
      let instances = this.rows.get(row.configId);
      if (!instances) this.rows.set(row.configId, (instances = new HeldInstances()));
      instances.put(row, now);
      changed.add(row.configId);
    }
    // an instance silent past LISTED_FOR_MS leaves the list here, and its row the table
    const silent: { configId: number; instance: string }[] = [];
    for (const [configId, instances] of this.rows) {
      const from = silent.length;
      for (const row of instances.rows()) if (now - row.reportedAt > LISTED_FOR_MS) silent.push({ configId, instance: row.instance });
      if (silent.length === from) continue;
      for (const { instance } of silent.slice(from)) instances.delete(instance);
      changed.add(configId);
      if (instances.size === 0) this.rows.delete(configId);
    }
    // every figure is written again once a minute: a database that lost its unlogged rows has them back
    const rewrite = now - this.lastRewrite > 60_000;
    if (rewrite) this.written.clear();
    if (now - this.othersCheckedAt >= OTHERS_CHECKED_EVERY_MS) {
      this.othersCheckedAt = now;
      const others = (await this.replicas.aliveCount()) > 1;
      if (others && !this.others) this.written.clear();
      this.others = others;
    }
    const computed = new Map<number, Merged>();
    const toWrite: Merged[] = [];
    for (const config of this.catalog.all()) {
      const previous = this.computed.get(config.id);
      let merged: Merged;
      if (previous && previous.config === config && !changed.has(config.id) && previous.movingUntil < now && !rewrite) merged = previous;
      else {
        const instances = this.rows.get(config.id);
        let until = 0;
        let first: InstanceRow | undefined;
        for (const row of instances?.rows() ?? []) {
          first ??= row;
          until = Math.max(until, movingUntil(row));
        }
        const stats = instances ? instances.stats(config.id, overrideOf(config, first), now) : noFigures(config, now);
        merged = { config, stats, movingUntil: until };
      }
      computed.set(config.id, merged);
      // a move at once; counts and latencies that moved at most every FIGURES_WRITTEN_EVERY_MS (held till then); none
      // while no other replica runs (written all at once when one comes: fleet-figures-wanted)
      if (!this.others) continue;
      const last = this.written.get(config.id);
      // built once per merge, and only when asked: a thousand breakers' figures move at every read
      const headline = (merged.headline ??= headlineOf(merged.stats));
      if (last && last.headline === headline && now - last.at < FIGURES_WRITTEN_EVERY_MS) continue;
      if (last?.json === (merged.json ??= JSON.stringify(merged.stats))) continue;
      toWrite.push(merged);
    }
    // rows of a breaker deleted meanwhile went with it
    for (const configId of this.rows.keys()) if (!this.catalog.get(configId)) this.rows.delete(configId);
    // each one's JSON, built for the comparison above, is what is written
    await this.repository.writeFigures(toWrite.map((merged) => merged.json!));
    // only once written: a failed write is tried again at the next read
    for (const { stats, json, headline } of toWrite) this.written.set(stats.configId, { json: json!, headline: headline!, at: now });
    // the others read them now, not at their next turn: a change reaches every wall within one read of its report
    if (toWrite.length > 0) await this.bus.publishInternal('fleet-figures', null);
    this.horizon = read.horizon;
    changed.clear();
    // the silent instances' rows by their keys; every silent row once a minute, by the index on reported_at (a range
    // that holds the dead index entries of every row rewritten since the last vacuum: not at every read)
    await this.repository.forgetInstances(now - LISTED_FOR_MS, silent);
    if (rewrite) {
      this.lastRewrite = now;
      await this.repository.forgetInstances(now - LISTED_FOR_MS);
    }
    return computed;
  }

  /** Another replica's read: the figures the holder wrote since the last one. */
  private async follow(now: number): Promise<Map<number, Merged>> {
    if (this.horizon === '0') await this.bus.publishInternal('fleet-figures-wanted', null);
    const read = await this.repository.figuresWrittenSince(this.horizon);
    const fresh = new Map(read.figures.map((stats) => [stats.configId, stats]));
    const computed = new Map<number, Merged>();
    for (const config of this.catalog.all()) {
      const stats = fresh.get(config.id) ?? this.computed.get(config.id)?.stats ?? noFigures(config, now);
      // the hub's override of an agent's breaker is this replica's to tell at once, as its catalog has it
      const override = config.source === 'agent' ? config.override : stats.override;
      computed.set(config.id, { config, stats: stats.override === override ? stats : { ...stats, override }, movingUntil: 0 });
    }
    this.horizon = read.horizon;
    return computed;
  }

  /**
   * A breaker whose merged state moved goes to this replica's sockets as a stateChange at once, rather than with the
   * next metricsUpdate up to METRICS_UPDATE_INTERVAL_MS later: the wall shows a fleet's breaker opening within a read
   * of the report that said so. Each replica tells its own sockets from the figures it has (merged or read), so the
   * state a socket hears agrees with the metricsUpdate figures of the same replica.
   */
  private announceMoves(before: ReadonlyMap<number, Merged>, after: ReadonlyMap<number, Merged>, now: number) {
    const moves: ServerMessage[] = [];
    for (const [configId, merged] of after) {
      const previous = before.get(configId);
      if (!previous || previous.stats.state === merged.stats.state) continue;
      moves.push({
        type: 'stateChange',
        data: {
          configId,
          from: previous.stats.state,
          to: merged.stats.state,
          reason: 'Merged state of its service instances',
          at: merged.stats.lastTransitionAt ?? new Date(now).toISOString(),
          instanceId: this.bus.instanceId,
          override: merged.stats.override,
        },
      });
    }
    this.bus.publishHere(...moves);
  }

  /**
   * Every agent breaker's live instances at the last read, on the replica that merges them (/metrics writes each
   * instance's series there, once for the cluster); null on every other replica.
   */
  agentInstances(now = Date.now()): { config: BreakerConfigEntity; rows: InstanceRow[] }[] | null {
    if (this.part !== 'merging' || !this.leases.holds('fleet.figures', now)) return null;
    return this.catalog.all().flatMap((config) => {
      if (config.source !== 'agent') return [];
      const live = [...(this.rows.get(config.id)?.rows() ?? [])].filter((row) => !isStale(row, now));
      return live.length > 0 ? [{ config, rows: live }] : [];
    });
  }

  /** Every agent and scraped breaker's merged figures. */
  stats(): BreakerStats[] {
    return [...this.computed.values()].map((entry) => entry.stats);
  }

  /**
   * One breaker's instances, each with its own figures, and the live ones' merged figures, from its rows as they are
   * now (any replica: the instances page reads them when asked); null when it is not an agent's or scraped breaker.
   */
  async instancesOf(configId: number, now = Date.now()): Promise<BreakerInstancesPage | null> {
    const config = this.catalog.get(configId);
    if (!config) return null;
    const rows = await this.repository.instancesOf(configId, now - LISTED_FOR_MS, now, AGENT_PROTOCOL_LIMITS.instancesPerService);
    const figures = breakerFigures(config.id, overrideOf(config, rows[0]), rows, now);
    return { instances: figures.instances(), merged: figures.stats };
  }

  /** The breaker's state over its live instances (CLOSED while none reports). */
  stateOf(configId: number): BreakerStateName {
    return this.computed.get(configId)?.stats.state ?? 'CLOSED';
  }

  /** The override its figures carry: the hub's for an agent's breaker, the service's own for a scraped one. */
  overrideOf(configId: number): BreakerOverride | undefined {
    return this.computed.get(configId)?.stats.override;
  }
}
