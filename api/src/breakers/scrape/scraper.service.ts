import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { hubTypeOf, SCRAPE_TARGET_LIMITS } from '@cbh/contracts';
import {
  APP_CONFIG,
  type AppConfig,
  HubMetrics,
  InstanceRegistry,
  outboundRequest,
  PeriodicWork,
  RealtimeBus,
  type Repeating,
} from '../../platform';
import { BreakersService } from '../breakers.service';
import type { BreakerConfigEntity } from '../entities/breaker-config.entity';
import { FleetRepository } from '../fleet/fleet.repository';
import type { StoredPeriod } from '../fleet/instance-periods';
import { ScrapeTargetEntity } from './entities/scrape-target.entity';
import { periodWindow, readResilience4jMetrics, type ScrapedBreaker } from './resilience4j-metrics';
import { ScrapeTargetsService } from './scrape-targets.service';
import { ScrapeTargetsRepository } from './scrape-targets.repository';
import { ageOut, withinLimit } from './scraped-breakers';

/**
 * How often a replica looks for targets due while it scrapes or some are due; one that knows of none sleeps until a
 * target made or changed wakes it (the bus), or IDLE_LOOK_MS.
 */
const POLL_EVERY_MS = 1000;
/** A replica's claim on a target: a scrape takes at most SCRAPE_TARGET_LIMITS.timeoutMs; a dead replica's lapses. */
const LEASE_MS = SCRAPE_TARGET_LIMITS.timeoutMs + 5000;
/** Targets one replica scrapes at once. */
const CLAIM_AT_MOST = 8;
const ACCEPT = 'text/plain;version=0.0.4;q=1.0, */*;q=0.1';

/** A scraped breaker's period in the form the agents' periods are kept (see toStoredPeriod), without a histogram. */
function storedPeriod(previous: ScrapedBreaker | undefined, current: ScrapedBreaker, elapsedMs: number, at: number): StoredPeriod {
  const window = periodWindow(previous, current, elapsedMs);
  const ran = window.successes + window.failures;
  return [
    at,
    window.successes,
    window.failures,
    0,
    window.rejections,
    window.longestCallMs,
    Math.round((window.meanMs ?? 0) * ran),
    elapsedMs,
  ];
}

/**
 * Scrapes every target when it is due, each by one replica at a time: a target is claimed with a lease in one
 * atomic statement (FOR UPDATE SKIP LOCKED), as the domain checks are, and a replica that dies only delays it until
 * its lease lapses. A scrape's breakers join the wall read-only (source `scrape`, service the target's name, one
 * instance named after the target), its state changes are journalled, and its error is kept with the target.
 */
@Injectable()
export class Scraper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(Scraper.name);
  private claiming?: Repeating;
  private running = new Set<Promise<void>>();

  constructor(
    private readonly work: PeriodicWork,
    private readonly targets: ScrapeTargetsService,
    private readonly repository: ScrapeTargetsRepository,
    private readonly fleet: FleetRepository,
    private readonly breakers: BreakersService,
    private readonly instance: InstanceRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly hubMetrics: HubMetrics,
    private readonly bus: RealtimeBus,
  ) {}

  onApplicationBootstrap() {
    this.claiming = this.work.whenDue(
      { soonestMs: POLL_EVERY_MS },
      () => this.claimDue(),
      (error) => this.logger.warn(`scrape targets not claimed: ${error.message}`),
    );
    this.bus.whenTold(['scrape-targets-due'], () => this.claiming?.runAgain());
  }

  async onModuleDestroy() {
    await this.claiming?.stop();
    await Promise.allSettled([...this.running]);
  }

  /**
   * Claims as many due targets as there are free slots and starts their scrapes without waiting for them: a slow
   * target holds its own slot, not the next poll. scrape() records every failure with its target. Returns when to
   * look again: in a poll while scraping, else when the next target falls due (null: no targets).
   */
  private async claimDue(): Promise<number | null> {
    const free = CLAIM_AT_MOST - this.running.size;
    if (free <= 0) return Date.now() + POLL_EVERY_MS;
    const claimed = await this.repository.claimDue(this.instance.id, free, LEASE_MS);
    for (const target of claimed) {
      const run = this.scrape(target).finally(() => this.running.delete(run));
      this.running.add(run);
    }
    if (this.running.size > 0) return Date.now() + POLL_EVERY_MS;
    return this.repository.nextDue();
  }

  /** One scrape of one claimed target, its outcome kept with the target and its lease given back. */
  async scrape(target: ScrapeTargetEntity, now = Date.now()): Promise<void> {
    try {
      const text = await this.fetch(target);
      const { breakers: read, truncated } = readResilience4jMetrics(text);
      // the hub keys names whatever their letter case: of two that differ only in it, the first is kept
      const seen = new Set<string>();
      const breakers = read.filter((breaker) => !seen.has(breaker.name.toLowerCase()) && seen.add(breaker.name.toLowerCase()));
      // the target may have been renamed, deleted or given to another replica (a lapsed lease) during the fetch
      if (!(await this.repository.stillLeased(target.id, this.instance.id, target.name))) return;
      // the service's breakers first leave what aged out, then take new ones within its limit (see scraped-breakers)
      const known = await this.targets.scrapedBreakersOf(target.name);
      const { agedOut, absent } = ageOut(known, breakers, target.absent, now);
      await this.targets.ageOut(target, agedOut);
      const gone = new Set(agedOut);
      const kept = known.filter((breaker) => !gone.has(breaker));
      const { taken, refusal } = withinLimit(target.name, breakers, kept);
      await this.record(target, taken, kept, now);
      this.hubMetrics.scrapes.inc({ outcome: 'ok' });
      const errors = [
        truncated ? `more than ${breakers.length} breakers exposed: only the first ${breakers.length} by name are shown` : null,
        refusal,
      ].filter((error) => error !== null);
      await this.repository.finish(target.id, this.instance.id, {
        error: errors.length > 0 ? errors.join('; ') : null,
        breakers: taken,
        absent,
      });
    } catch (error) {
      this.hubMetrics.scrapes.inc({ outcome: 'error' });
      await this.repository
        .finish(target.id, this.instance.id, { error: (error as Error).message.slice(0, 500), breakers: null })
        .catch((failure: Error) => this.logger.warn(`scrape of ${target.name} not recorded: ${failure.message}`));
    }
  }

  private async fetch(target: ScrapeTargetEntity): Promise<string> {
    const token = this.targets.tokenOf(target);
    if (target.bearerTokenSealed && token === null)
      throw new Error('the bearer token was sealed under another SESSION_SECRET: set it again');
    const url = new URL(target.url);
    const response = await outboundRequest(url, {
      method: 'GET',
      timeoutMs: SCRAPE_TARGET_LIMITS.timeoutMs,
      wholeBodyUpTo: SCRAPE_TARGET_LIMITS.responseBytes,
      ...this.config.ALLOW_PRIVATE_TARGETS,
      allowPublic: url.protocol === 'https:',
      headers: { accept: ACCEPT, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    if (response.status !== 200)
      throw new Error(`HTTP ${response.status} from ${url.host}${response.status === 401 ? ' (check the bearer token)' : ''}`);
    return response.body;
  }

  /**
   * The breakers of a good scrape onto the wall: rows made for the new ones, the instance's period, moves journalled.
   * kept: the service's breakers as the scrape just read them from the database, less those that aged out.
   */
  private async record(
    target: ScrapeTargetEntity,
    breakers: readonly ScrapedBreaker[],
    kept: readonly Pick<BreakerConfigEntity, 'id' | 'name'>[],
    now: number,
  ) {
    const previous = new Map((target.counters ?? []).map((breaker) => [breaker.name, breaker]));
    const elapsedMs = target.lastScrapeAt ? now - target.lastScrapeAt.getTime() : target.intervalSeconds * 1000;
    // A scraped breaker's row holds nothing a scrape changes (its library and type are always these, its settings
    // none): the rows the scrape read cost no statement, as an agent's unchanged breakers do. A new one is made and
    // announced; one another replica made meanwhile is returned as it is.
    const rows = new Map(kept.map((config) => [config.name.toLowerCase(), config.id]));
    const missing = breakers.filter((breaker) => !rows.has(breaker.name.toLowerCase()));
    if (missing.length > 0) {
      const ensured = await this.fleet.ensureBreakers(
        'scrape',
        target.name,
        missing.map((breaker) => ({
          name: breaker.name,
          type: hubTypeOf('resilience4j', 'circuit-breaker'),
          library: 'resilience4j',
          libraryType: 'circuit-breaker',
          settings: null,
        })),
      );
      for (const { config } of ensured) rows.set(config.name.toLowerCase(), config.id);
      await Promise.all(ensured.filter(({ created }) => created).map(({ config }) => this.breakers.announceChange(config)));
    }
    const reports = breakers.flatMap((breaker) => {
      const configId = rows.get(breaker.name.toLowerCase());
      if (configId === undefined) return [];
      const before = previous.get(breaker.name);
      const moved = before !== undefined && before.resilience4jState !== breaker.resilience4jState;
      return [{ breaker, configId, before, moved }];
    });
    await Promise.all([
      this.fleet.writeInstances(
        reports.map(({ breaker, configId, before, moved }) => ({
          configId,
          instance: target.name,
          state: breaker.state,
          override: breaker.override,
          reportedAt: now,
          periodMs: target.intervalSeconds * 1000,
          lastMoveAt: moved ? now : null,
          period: storedPeriod(before, breaker, elapsedMs, now),
        })),
        now,
      ),
      this.fleet.journal(
        reports
          .filter(({ moved, before, breaker }) => moved && before!.state !== breaker.state)
          .map(({ configId, before, breaker }) => ({
            configId,
            from: before!.state,
            to: breaker.state,
            reason: `resilience4j state ${before!.resilience4jState} → ${breaker.resilience4jState} (seen by scrape)`,
            at: new Date(now).toISOString(),
            serviceInstance: target.name,
          })),
      ),
    ]);
  }
}
