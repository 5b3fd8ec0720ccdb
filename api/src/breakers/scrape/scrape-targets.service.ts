import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import { SCRAPE_TARGET_LIMITS, type CreateScrapeTarget, type ScrapeTargetView, type UpdateScrapeTarget } from '@cbh/contracts';
import { type AppRequest, AuditService } from '../../identity';
import { BreakersService } from '../breakers.service';
import { BreakerConfigEntity } from '../entities/breaker-config.entity';
import { APP_CONFIG, type AppConfig, judgeTargetUrl, movesOrigin, SecretBox, withUniqueName } from '../../platform';
import { ScrapeTargetEntity } from './entities/scrape-target.entity';

export function scrapeTargetView(row: ScrapeTargetEntity): ScrapeTargetView {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    intervalSeconds: row.intervalSeconds,
    bearerTokenSet: row.bearerTokenSealed !== null,
    lastScrapeAt: row.lastScrapeAt?.toISOString() ?? null,
    lastError: row.lastError,
    breakers: row.lastBreakers,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit trail keeps of a target: never its token. */
const audited = ({ name, url, intervalSeconds, bearerTokenSet }: ScrapeTargetView) => ({ name, url, intervalSeconds, bearerTokenSet });

/**
 * The Prometheus endpoints the hub scrapes: their URL judged like any the hub calls (ALLOW_PRIVATE_TARGETS), their
 * bearer token sealed, every change audited. A target's breakers carry its name as their service, so renaming it
 * renames their service and deleting it deletes them.
 */
@Injectable()
export class ScrapeTargetsService {
  private readonly box: SecretBox;

  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly breakers: BreakersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.box = new SecretBox(config.SESSION_SECRET, 'scrape-target');
  }

  private get repository() {
    return this.dataSource.getRepository(ScrapeTargetEntity);
  }

  async list(): Promise<ScrapeTargetView[]> {
    return (await this.repository.find({ order: { id: 'ASC' }, take: SCRAPE_TARGET_LIMITS.targets })).map(scrapeTargetView);
  }

  async get(id: number): Promise<ScrapeTargetView> {
    return scrapeTargetView(await this.find(this.dataSource.manager, id));
  }

  async judgeUrl(url: string) {
    const problem = await judgeTargetUrl(url, this.config.ALLOW_PRIVATE_TARGETS);
    if (problem) throw new BadRequestException(`url: ${problem}`);
  }

  async create(req: AppRequest | null, body: CreateScrapeTarget): Promise<ScrapeTargetView> {
    await this.judgeUrl(body.url);
    return this.dataSource.transaction((manager) => this.createIn(manager, req, body));
  }

  /** Inside the caller's transaction; the caller judged the URL. */
  async createIn(manager: EntityManager, req: AppRequest | null, body: CreateScrapeTarget): Promise<ScrapeTargetView> {
    if ((await manager.count(ScrapeTargetEntity)) >= SCRAPE_TARGET_LIMITS.targets) {
      throw new ConflictException(`At most ${SCRAPE_TARGET_LIMITS.targets} scrape targets`);
    }
    const row = await withUniqueName('scrape target', body.name, () =>
      manager.save(
        manager.create(ScrapeTargetEntity, {
          name: body.name,
          url: body.url,
          intervalSeconds: body.intervalSeconds,
          bearerTokenSealed: body.bearerToken ? this.box.seal(body.bearerToken) : null,
          nextRunAt: new Date(),
        }),
      ),
    );
    const view = scrapeTargetView(row);
    await this.audit.record(
      req,
      { action: 'scrape-target.create', targetType: 'scrape_target', targetId: String(row.id), after: audited(view) },
      manager,
    );
    return view;
  }

  async update(req: AppRequest | null, id: number, patch: UpdateScrapeTarget): Promise<ScrapeTargetView> {
    if (patch.url) await this.judgeUrl(patch.url);
    const view = await this.dataSource.transaction((manager) => this.updateIn(manager, req, id, patch));
    if (patch.name !== undefined) await this.announceBreakersOf(view.name);
    return view;
  }

  /** Tells every replica that a renamed target's breakers have a new service. */
  async announceBreakersOf(name: string) {
    const rows = await this.dataSource.getRepository(BreakerConfigEntity).find({ where: { source: 'scrape', service: name } });
    await Promise.all(rows.map((row) => this.breakers.announceChange(row)));
  }

  async updateIn(manager: EntityManager, req: AppRequest | null, id: number, patch: UpdateScrapeTarget): Promise<ScrapeTargetView> {
    const row = await this.find(manager, id, true);
    // the token is the scraped service's credential: it goes to another origin only when given again for it
    if (patch.url !== undefined && row.bearerTokenSealed !== null && patch.bearerToken === undefined && movesOrigin(row.url, patch.url)) {
      throw new BadRequestException(
        `bearerToken: the URL moves to ${new URL(patch.url).origin}; give the token again for it, or null to scrape it without one`,
      );
    }
    const before = audited(scrapeTargetView(row));
    const renamedFrom = patch.name !== undefined && patch.name !== row.name ? row.name : null;
    if (patch.name !== undefined) row.name = patch.name;
    if (patch.url !== undefined) row.url = patch.url;
    if (patch.intervalSeconds !== undefined) row.intervalSeconds = patch.intervalSeconds;
    if (patch.bearerToken !== undefined) row.bearerTokenSealed = patch.bearerToken === null ? null : this.box.seal(patch.bearerToken);
    // a new address or token is scraped at once, its counters compared with nothing older
    if (patch.url !== undefined || patch.bearerToken !== undefined) {
      row.nextRunAt = new Date();
      row.counters = null;
    }
    const saved = await withUniqueName('scrape target', row.name, () => manager.save(row));
    if (renamedFrom !== null) {
      await manager.update(
        BreakerConfigEntity,
        { source: 'scrape', service: renamedFrom },
        { service: row.name, version: () => 'version + 1' },
      );
    }
    const view = scrapeTargetView(saved);
    await this.audit.record(
      req,
      { action: 'scrape-target.update', targetType: 'scrape_target', targetId: String(id), before, after: audited(view) },
      manager,
    );
    return view;
  }

  /** Deletes the target and the breakers it brought. */
  async remove(req: AppRequest | null, id: number): Promise<void> {
    const gone = await this.dataSource.transaction((manager) => this.removeIn(manager, req, id));
    await this.announceRemoval(gone);
  }

  /** Inside the caller's transaction; the ids of the breakers deleted with it, for announceRemoval once it commits. */
  async removeIn(manager: EntityManager, req: AppRequest | null, id: number): Promise<number[]> {
    const row = await this.find(manager, id, true);
    const breakers = await manager.find(BreakerConfigEntity, { where: { source: 'scrape', service: row.name }, select: { id: true } });
    await manager.delete(BreakerConfigEntity, { source: 'scrape', service: row.name });
    await manager.delete(ScrapeTargetEntity, { id });
    await this.audit.record(
      req,
      { action: 'scrape-target.delete', targetType: 'scrape_target', targetId: String(id), before: audited(scrapeTargetView(row)) },
      manager,
    );
    return breakers.map((breaker) => breaker.id);
  }

  async announceRemoval(configIds: readonly number[]) {
    await Promise.all(configIds.map((configId) => this.breakers.announceRemoval(configId)));
  }

  /** The breakers a target's scrapes brought, under its name: what its limit counts and its age-out looks through. */
  scrapedBreakersOf(name: string): Promise<Pick<BreakerConfigEntity, 'id' | 'name'>[]> {
    return this.dataSource
      .getRepository(BreakerConfigEntity)
      .find({ where: { source: 'scrape', service: name }, select: { id: true, name: true }, order: { id: 'ASC' } });
  }

  /** Deletes the breakers a target no longer exposes once they aged out (see scraped-breakers), audited, and tells every replica. */
  async ageOut(target: ScrapeTargetEntity, breakers: readonly Pick<BreakerConfigEntity, 'id' | 'name'>[]): Promise<void> {
    if (breakers.length === 0) return;
    const ids = breakers.map((breaker) => breaker.id);
    await this.dataSource.transaction(async (manager) => {
      await manager.delete(BreakerConfigEntity, { id: In(ids), source: 'scrape', service: target.name });
      await this.audit.record(
        null,
        {
          action: 'scrape-target.breakers-aged-out',
          targetType: 'scrape_target',
          targetId: String(target.id),
          before: { breakers: breakers.map((breaker) => breaker.name) },
        },
        manager,
      );
    });
    await this.announceRemoval(ids);
  }

  /** Every target, in the caller's transaction: what a configuration document is compared with. */
  allIn(manager: EntityManager): Promise<ScrapeTargetEntity[]> {
    return manager.find(ScrapeTargetEntity, { order: { id: 'ASC' } });
  }

  /** A target's bearer token in the clear, null when it has none (or it was sealed under another SESSION_SECRET). */
  tokenOf(row: ScrapeTargetEntity): string | null {
    return row.bearerTokenSealed ? this.box.open(row.bearerTokenSealed) : null;
  }

  private async find(manager: EntityManager, id: number, lock = false): Promise<ScrapeTargetEntity> {
    const row = await manager.findOne(ScrapeTargetEntity, {
      where: { id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!row) throw new NotFoundException(`No scrape target with id ${id}`);
    return row;
  }
}
