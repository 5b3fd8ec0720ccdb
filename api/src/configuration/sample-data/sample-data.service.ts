import { ConflictException, ForbiddenException, HttpException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IMPORT_KINDS, SAMPLE_DATA_PRODUCTION_REFUSAL, type ImportChange, type ImportKind, type SampleDataView } from '@cbh/contracts';
import { APP_CONFIG, type AppConfig } from '../../platform';
import { AuditService, type AppRequest } from '../../identity';
import { BreakerControl, BreakersService, LoadTestsService, ServicesService } from '../../breakers';
import { DomainsService } from '../../domains';
import { NotificationSettingsService } from '../../notifications';
import { ConfigurationService } from '../configuration.service';
import { SampleDataEntity, SampleDataItemEntity } from './entities/sample-data.entity';
import { SAMPLE_CONTROLS, SAMPLE_DOCUMENT, SAMPLE_LOAD_TESTS } from './sample-document';

/** The order removal takes: what refers to others first (rules name channels, services name breakers). */
const REMOVAL_ORDER: readonly ImportKind[] = [
  'notificationRule',
  'channel',
  'maintenanceWindow',
  'service',
  'breaker',
  'domain',
  'scrapeTarget',
];

/**
 * Loads the sample data through the paths an operator's changes take (a configuration import, then load tests and
 * a manual control for some history), records each item it added by id, and removes exactly those: an item renamed
 * since is still found, an item deleted since is skipped, and whatever anyone else made stays.
 */
@Injectable()
export class SampleDataService {
  private readonly logger = new Logger(SampleDataService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly configuration: ConfigurationService,
    private readonly breakers: BreakersService,
    private readonly control: BreakerControl,
    private readonly loadTests: LoadTestsService,
    private readonly services: ServicesService,
    private readonly domains: DomainsService,
    private readonly notifications: NotificationSettingsService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async view(): Promise<SampleDataView> {
    const loaded = await this.dataSource.getRepository(SampleDataEntity).findOneBy({ id: 1 });
    const items = await this.dataSource.getRepository(SampleDataItemEntity).find();
    const order = (kind: ImportKind) => IMPORT_KINDS.indexOf(kind);
    return {
      loaded: loaded !== null,
      loadedAt: loaded?.loadedAt.toISOString() ?? null,
      items: items.sort((a, b) => order(a.kind) - order(b.kind) || a.name.localeCompare(b.name)).map(({ kind, name }) => ({ kind, name })),
      refused: this.refusal(),
    };
  }

  async load(req: AppRequest): Promise<SampleDataView> {
    const refused = this.refusal();
    if (refused) throw new ForbiddenException(refused);
    const claimed = await this.dataSource
      .getRepository(SampleDataEntity)
      .createQueryBuilder()
      .insert()
      .values({ id: 1, loadedBy: req.user!.id })
      .orIgnore()
      .execute();
    if (claimed.identifiers.length === 0 || claimed.raw.length === 0) {
      throw new ConflictException('Sample data is already loaded: remove it first to load it again');
    }
    try {
      await this.add(req);
    } catch (error) {
      await this.dataSource.getRepository(SampleDataEntity).delete({ id: 1 });
      throw error;
    }
    const loaded = await this.view();
    await this.audit.record(req, { action: 'sample-data.load', targetType: 'sample_data', targetId: '1', after: loaded });
    return loaded;
  }

  /** Removes every item still recorded; one that cannot go now stays recorded (and the sample loaded) for another try. */
  async remove(req: AppRequest): Promise<SampleDataView> {
    if (!(await this.dataSource.getRepository(SampleDataEntity).existsBy({ id: 1 })))
      throw new NotFoundException('No sample data is loaded');
    const before = await this.view();
    const items = await this.dataSource.getRepository(SampleDataItemEntity).find();
    const refusals: string[] = [];
    for (const kind of REMOVAL_ORDER) {
      for (const item of items.filter((each) => each.kind === kind)) {
        try {
          await this.removeItem(req, item);
        } catch (error) {
          if (!(error instanceof NotFoundException)) {
            refusals.push(`${item.name}: ${error instanceof HttpException ? error.message : String(error)}`);
            continue;
          }
        }
        await this.dataSource.getRepository(SampleDataItemEntity).delete({ kind: item.kind, itemId: item.itemId });
      }
    }
    if (refusals.length > 0) throw new ConflictException(`Some sample data could not be removed: ${refusals.join('; ')}`);
    await this.dataSource.getRepository(SampleDataEntity).delete({ id: 1 });
    await this.audit.record(req, { action: 'sample-data.remove', targetType: 'sample_data', targetId: '1', before });
    return this.view();
  }

  private refusal(): string | null {
    return this.config.NODE_ENV === 'production' ? SAMPLE_DATA_PRODUCTION_REFUSAL : null;
  }

  /** Imports the document after a dry run showed it only creates: an item of the same name is the operator's to keep. */
  private async add(req: AppRequest): Promise<void> {
    const planned = await this.configuration.import(req, SAMPLE_DOCUMENT, { dryRun: true, prune: false });
    const taken = planned.changes.filter((change) => change.action !== 'create');
    if (taken.length > 0) {
      throw new ConflictException(`The hub already has ${taken.map(named).join(', ')}: sample data only adds items of its own`);
    }
    const { changes } = await this.configuration.import(req, SAMPLE_DOCUMENT, { dryRun: false, prune: false });
    const items = await this.idsOf(changes.filter((change) => change.action === 'create'));
    await this.dataSource.getRepository(SampleDataItemEntity).insert(items);
    await this.addHistory(req, new Map(items.filter((item) => item.kind === 'breaker').map((item) => [item.name, Number(item.itemId)])));
  }

  /** The ids of the items an import created, read by their names, which the hub keeps unique per kind. */
  private async idsOf(created: ImportChange[]): Promise<SampleDataItemEntity[]> {
    const manager = this.dataSource.manager;
    const notifications = await this.notifications.configurationIn(manager);
    const { domains } = await this.domains.withCertificatesIn(manager);
    const ids: Record<ImportKind, Map<string, string>> = {
      breaker: byName((await this.breakers.hubConfigsIn(manager)).map(({ id, name }) => [name, id])),
      service: byName((await this.services.allIn(manager)).map(({ id, name }) => [name, id])),
      domain: byName(domains.map(({ id, domain }) => [domain, id])),
      channel: byName(notifications.channels.map(({ row }) => [row.name, row.id])),
      notificationRule: byName(notifications.rules.map(({ row }) => [row.name, row.id])),
      maintenanceWindow: byName(notifications.windows.map(({ id, name }) => [name, id])),
      scrapeTarget: new Map(),
      // the sample document holds no schedules, escalation policies, status pages, SLOs or saved drills
      schedule: new Map(),
      escalationPolicy: new Map(),
      statusPage: new Map(),
      slo: new Map(),
      drill: new Map(),
    };
    return created.flatMap(({ kind, name }) => {
      const id = ids[kind].get(name.toLowerCase());
      return id === undefined ? [] : [Object.assign(new SampleDataItemEntity(), { kind, itemId: id, name })];
    });
  }

  /** Load tests and a manual control tried and undone: a refusal (the account's load tests at their limit) only costs history. */
  private async addHistory(req: AppRequest, breakers: Map<string, number>): Promise<void> {
    const controlled = breakers.get(SAMPLE_CONTROLS.breaker);
    if (controlled !== undefined) for (const action of SAMPLE_CONTROLS.actions) await this.control.manual(req, controlled, action);
    for (const { breaker, ...test } of SAMPLE_LOAD_TESTS) {
      const configId = breakers.get(breaker);
      if (configId === undefined) continue;
      try {
        await this.loadTests.start(req, { configId, ...test });
      } catch (error) {
        this.logger.warn(`sample load test on ${breaker} not started: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  private async removeItem(req: AppRequest, { kind, itemId }: SampleDataItemEntity): Promise<void> {
    switch (kind) {
      case 'notificationRule':
        return this.notifications.deleteRule(req, itemId);
      case 'channel':
        return this.notifications.deleteChannel(req, itemId);
      case 'maintenanceWindow':
        return this.notifications.deleteWindow(req, itemId);
      case 'service':
        return this.services.remove(req, Number(itemId));
      case 'breaker': {
        // a load test through it (the sample's own, or one tried on it since) is stopped, audited, before it goes
        for (const session of await this.loadTests.list('running', Number(itemId))) await this.loadTests.stop(req, session.id);
        return this.breakers.remove(req, Number(itemId));
      }
      case 'domain':
        return this.domains.remove(req, Number(itemId));
      case 'scrapeTarget':
        return;
    }
  }
}

const byName = (entries: [string, string | number][]) => new Map(entries.map(([name, id]) => [name.toLowerCase(), String(id)]));
const named = (change: ImportChange) => `${change.kind} '${change.name}'`;
