import { HttpException, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  BREAKER_TYPE_SETTINGS,
  CHAOS_ENDPOINT,
  CONFIG_DOCUMENT_VERSION,
  IMPORT_KINDS,
  type BreakerItem,
  type ConfigDocument,
  type DomainItem,
  hasPermission,
  type ImportChange,
  type ImportQuery,
  type ImportResult,
  type ServiceItem,
} from '@cbh/contracts';
import type { AppRequest } from '../auth/session-user';
import { BreakersService, type BreakerChanges } from '../breakers/breakers.service';
import { BreakerConfigEntity } from '../breakers/entities/breaker-config.entity';
import { DomainsService } from '../domains/domains.service';
import { DomainEntity } from '../domains/entities/domain.entity';
import { SslCertificateEntity } from '../domains/entities/ssl-certificate.entity';
import { NotificationSettingsService, type NotificationConfiguration } from '../notifications/notification-settings.service';
import { ServiceEntity } from '../services/entities/service.entity';
import { chaosPathOf, ServicesService } from '../services/services.service';
import { exportNotifications, hasNotificationLists, mayImportNotifications, NotificationSteps } from './notification-steps';
import { ConfigurationRepository } from './configuration.repository';
import { byName, key, unchanged, type Step } from './steps';
import { ScrapeTargetEntity } from '../scrape/entities/scrape-target.entity';
import { ScrapeTargetsService } from '../scrape/scrape-targets.service';
import { exportScrapeTargets, mayImportScrapeTargets, scrapeTargetSteps } from './scrape-target-steps';

/** What the hub holds of what a document describes. */
interface Hub {
  breakers: BreakerConfigEntity[];
  services: ServiceEntity[];
  domains: DomainEntity[];
  certificates: Map<number, SslCertificateEntity>;
  /** Read only for a document with notification lists, or an export for a holder of circuit_breaker_admin. */
  notifications: NotificationConfiguration | null;
  /** Read only for a document with scrape targets, or an export for a holder of circuit_breaker_admin. */
  scrapeTargets: ScrapeTargetEntity[] | null;
}

const BREAKER_FIELDS = ['name', 'type', 'failureThreshold', 'timeout', 'recoveryTime', 'successThreshold'] as const;
const SERVICE_FIELDS = ['name', 'endpoint', 'failureRate', 'averageResponseTime'] as const;

/** Items created or updated by one statement at most: far inside PostgreSQL's limit of parameters to one statement. */
const BATCH = 500;

function batches<T>(items: T[]): T[][] {
  return Array.from({ length: Math.ceil(items.length / BATCH) }, (_, index) => items.slice(index * BATCH, (index + 1) * BATCH));
}

/** What the replicas and screens are told once the import commits. */
type Announcement = () => Promise<unknown>;

/**
 * The hub's configuration as a document: exported with a stable order, imported as a diff applied in one
 * transaction through the same create, update and delete paths (rules, audit, live messages) as changes by hand.
 */
@Injectable()
export class ConfigurationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly breakers: BreakersService,
    private readonly services: ServicesService,
    private readonly domains: DomainsService,
    private readonly notifications: NotificationSettingsService,
    private readonly scrapeTargets: ScrapeTargetsService,
    private readonly repository: ConfigurationRepository,
  ) {}

  /** The document; notification channels, rules and windows only for holders of circuit_breaker_admin (see notification-steps). */
  async exportDocument(req: AppRequest): Promise<ConfigDocument> {
    const admin = hasPermission(req.user, 'circuit_breaker_admin');
    const hub = await this.read(this.dataSource.manager, admin, admin);
    const breakerNames = new Map(hub.breakers.map((breaker) => [breaker.id, breaker.name]));
    return {
      version: CONFIG_DOCUMENT_VERSION,
      breakers: hub.breakers.map(breakerItem).sort(byName),
      services: hub.services.map((service) => serviceItem(service, breakerNames)).sort(byName),
      domains: hub.domains.map((domain) => domainItem(domain, hub.certificates.get(domain.id))).sort(byName),
      ...(hub.notifications ? exportNotifications(req, hub.notifications) : {}),
      ...(hub.scrapeTargets ? { scrapeTargets: exportScrapeTargets(hub.scrapeTargets) } : {}),
    };
  }

  /**
   * The diff of the document against the hub; unless a dry run, applied in one transaction, all or nothing. Imports
   * on any replica take turns (an advisory lock), so each diffs against what the previous one left.
   */
  async import(req: AppRequest, document: ConfigDocument, { dryRun, prune }: ImportQuery): Promise<ImportResult> {
    mayImportNotifications(req, document);
    mayImportScrapeTargets(req, document);
    const withNotifications = hasNotificationLists(document);
    const withTargets = document.scrapeTargets !== undefined;
    if (dryRun) {
      const steps = this.plan(req, document, await this.read(this.dataSource.manager, withNotifications, withTargets), prune, []);
      await check(steps);
      return { changes: report(steps) };
    }
    const announcements: Announcement[] = [];
    const changes = await this.dataSource.transaction(async (manager) => {
      await this.repository.lockImports(manager);
      const steps = this.plan(req, document, await this.read(manager, withNotifications, withTargets), prune, announcements);
      await check(steps);
      for (const step of steps) {
        if (!step.apply) continue;
        try {
          await step.apply(manager);
        } catch (error) {
          throw naming(step.label, error);
        }
      }
      return report(steps);
    });
    // after the commit, all at once: the bus sends what one turn publishes together
    await Promise.all(announcements.map((announce) => announce()));
    return { changes };
  }

  private async read(manager: EntityManager, withNotifications: boolean, withTargets: boolean): Promise<Hub> {
    // one after the other: in a transaction they share one connection
    // an agent's or scraped breaker is its service's, not the document's
    const breakers = await manager.find(BreakerConfigEntity, { where: { source: 'hub' }, order: { id: 'ASC' } });
    const services = await manager.find(ServiceEntity, { order: { id: 'ASC' } });
    const domains = await manager.find(DomainEntity, { order: { id: 'ASC' } });
    const certificates = await manager.find(SslCertificateEntity);
    const notifications = withNotifications ? await this.notifications.configurationIn(manager) : null;
    const scrapeTargets = withTargets ? await this.scrapeTargets.allIn(manager) : null;
    return {
      scrapeTargets,
      breakers,
      services,
      domains,
      certificates: new Map(certificates.map((certificate) => [certificate.domainId, certificate])),
      notifications,
    };
  }

  /**
   * Every item's change in the order they are applied: breakers before the services that name them, services
   * deleted before the breakers they used, domains deleted before new ones count against the quotas, then the
   * notification settings (see NotificationSteps). The changes are reported by kind (see report).
   */
  private plan(req: AppRequest, document: ConfigDocument, hub: Hub, prune: boolean, announcements: Announcement[]): Step[] {
    const breakers = this.planBreakers(req, document.breakers, hub, prune, announcements);
    const services = this.planServices(req, document, hub, prune, announcements, breakers.ids);
    const domains = this.planDomains(req, document.domains, hub, prune, announcements);
    const notifications = hub.notifications
      ? new NotificationSteps(this.notifications, req, document, hub.notifications, prune).plan()
      : { deleted: [], kept: [] };
    const targets = scrapeTargetSteps(this.scrapeTargets, req, document.scrapeTargets, hub.scrapeTargets ?? [], prune, announcements);
    return [
      ...breakers.kept,
      ...services.deleted,
      ...services.kept,
      ...breakers.deleted,
      ...domains.deleted,
      ...domains.kept,
      ...notifications.deleted,
      ...notifications.kept,
      ...targets.deleted,
      ...targets.kept,
    ];
  }

  private planBreakers(req: AppRequest, items: BreakerItem[], hub: Hub, prune: boolean, announcements: Announcement[]) {
    const existing = new Map(hub.breakers.map((breaker) => [key(breaker.name), breaker]));
    /** Each breaker's id by name once the earlier steps ran: the services' steps look theirs up here. */
    const ids = new Map(hub.breakers.map((breaker) => [key(breaker.name), breaker.id]));
    const created: BreakerItem[] = [];
    const updated: { id: number; changes: BreakerChanges }[] = [];
    const kept = items.map((item, index): Step => {
      const label = `breakers[${index}] (${item.name})`;
      const current = existing.get(key(item.name));
      const settings = breakerSettings(item);
      if (!current) {
        created.push(item);
        return { change: { kind: 'breaker', name: item.name, action: 'create' }, label };
      }
      const fields = (Object.keys(settings) as (keyof typeof settings)[]).filter((field) => settings[field] !== current[field]);
      if (fields.length === 0) return unchanged('breaker', current.name, label);
      updated.push({ id: current.id, changes: Object.fromEntries(fields.map((field) => [field, settings[field]])) as BreakerChanges });
      return { change: { kind: 'breaker', name: item.name, action: 'update', fields }, label };
    });
    for (const batch of batches(updated)) {
      kept.push({
        label: 'breakers',
        apply: async (manager) => {
          for (const config of await this.breakers.updateManyIn(manager, req, batch)) {
            announcements.push(() => this.breakers.announceChange(config));
          }
        },
      });
    }
    for (const batch of batches(created)) {
      kept.push({
        label: 'breakers',
        apply: async (manager) => {
          for (const config of await this.breakers.createManyIn(manager, req, batch)) {
            ids.set(key(config.name), config.id);
            announcements.push(() => this.breakers.announceChange(config));
          }
        },
      });
    }
    const named = new Set(items.map((item) => key(item.name)));
    const deleted = prune
      ? hub.breakers
          .filter((breaker) => !named.has(key(breaker.name)))
          .sort(byName)
          .map((breaker): Step => ({
            change: { kind: 'breaker', name: breaker.name, action: 'delete' },
            label: `breaker ${breaker.name}`,
            apply: async (manager) => {
              await this.breakers.removeIn(manager, req, breaker.id);
              announcements.push(() => this.breakers.announceRemoval(breaker.id));
            },
          }))
      : [];
    return { kept, deleted, ids };
  }

  private planServices(
    req: AppRequest,
    document: ConfigDocument,
    hub: Hub,
    prune: boolean,
    announcements: Announcement[],
    breakerIds: Map<string, number>,
  ) {
    const existing = new Map(hub.services.map((service) => [key(service.name), service]));
    const breakerNames = new Map(hub.breakers.map((breaker) => [breaker.id, breaker.name]));
    // a service may name a breaker of the document, or one the hub keeps (every breaker, unless pruning)
    const nameable = new Set([
      ...document.breakers.map((breaker) => key(breaker.name)),
      ...(prune ? [] : hub.breakers.map((b) => key(b.name))),
    ]);
    const kept = document.services.map((item, index): Step => {
      const label = `services[${index}] (${item.name})`;
      if (item.breaker !== null && !nameable.has(key(item.breaker))) {
        throw new HttpException(
          `services[${index}].breaker: no breaker named ${item.breaker} in the document${prune ? '' : ' or the hub'}`,
          400,
        );
      }
      const breakerId = () => (item.breaker === null ? null : breakerIds.get(key(item.breaker))!);
      const current = existing.get(key(item.name));
      const settings = { name: item.name, failureRate: item.failureRate, averageResponseTime: item.averageResponseTime };
      if (!current) {
        return {
          change: { kind: 'service', name: item.name, action: 'create' },
          label,
          apply: async (manager) => {
            const input = { ...settings, endpoint: item.endpoint, circuitBreakerConfigId: breakerId() };
            const created = await this.services.createIn(manager, req, input, { ownChaosTarget: item.endpoint === CHAOS_ENDPOINT });
            announcements.push(() => this.services.announceChange(created));
          },
        };
      }
      const endpoint = item.endpoint === CHAOS_ENDPOINT ? chaosPathOf(current.id) : item.endpoint;
      const wanted = { ...settings, endpoint };
      const fields: string[] = SERVICE_FIELDS.filter((field) => wanted[field] !== current[field]);
      const currentBreaker = current.circuitBreakerConfigId === null ? null : breakerNames.get(current.circuitBreakerConfigId)!;
      if ((item.breaker === null ? null : key(item.breaker)) !== (currentBreaker === null ? null : key(currentBreaker)))
        fields.push('breaker');
      if (fields.length === 0) return unchanged('service', current.name, label);
      return {
        change: { kind: 'service', name: item.name, action: 'update', fields },
        label,
        apply: async (manager) => {
          const changes = Object.fromEntries(
            fields.filter((field) => field !== 'breaker').map((field) => [field, wanted[field as keyof typeof wanted]]),
          );
          const updated = await this.services.updateIn(manager, req, current.id, {
            ...changes,
            ...(fields.includes('breaker') ? { circuitBreakerConfigId: breakerId() } : {}),
          });
          announcements.push(() => this.services.announceChange(updated));
        },
      };
    });
    const named = new Set(document.services.map((item) => key(item.name)));
    const deleted = prune
      ? hub.services
          .filter((service) => !named.has(key(service.name)))
          .sort(byName)
          .map((service): Step => ({
            change: { kind: 'service', name: service.name, action: 'delete' },
            label: `service ${service.name}`,
            apply: async (manager) => {
              await this.services.removeIn(manager, req, service.id);
              announcements.push(() => this.services.announceRemoval(service.id));
            },
          }))
      : [];
    return { kept, deleted };
  }

  private planDomains(req: AppRequest, items: DomainItem[], hub: Hub, prune: boolean, announcements: Announcement[]) {
    const existing = new Map(hub.domains.map((domain) => [domain.domain, domain]));
    const created: string[] = [];
    const kept = items.map((item, index): Step => {
      const label = `domains[${index}] (${item.name})`;
      const current = existing.get(item.name);
      if (!current) {
        created.push(item.name);
        return { change: { kind: 'domain', name: item.name, action: 'create' }, label };
      }
      // A certificate exists once a check has read it: until then there is no choice to keep, and autoRenew waits.
      const certificate = hub.certificates.get(current.id);
      const autoRenew = item.autoRenew;
      if (autoRenew === undefined || !certificate || (certificate.autoRenewOverridden && certificate.autoRenew === autoRenew)) {
        return unchanged('domain', current.domain, label);
      }
      return {
        change: { kind: 'domain', name: item.name, action: 'update', fields: ['autoRenew'] },
        label,
        apply: async (manager) => {
          await this.domains.updateCertificateIn(manager, req, certificate.id, autoRenew);
          announcements.push(() => this.domains.announce(current.id));
        },
      };
    });
    for (const batch of batches(created)) {
      kept.push({
        label: 'domains',
        apply: async (manager) => {
          for (const domain of await this.domains.createManyIn(manager, req, batch)) {
            announcements.push(() => this.domains.announce(domain.id));
          }
        },
      });
    }
    const named = new Set(items.map((item) => item.name));
    const deleted = prune
      ? hub.domains
          .filter((domain) => !named.has(domain.domain))
          .sort((a, b) => (a.domain < b.domain ? -1 : 1))
          .map((domain): Step => ({
            change: { kind: 'domain', name: domain.domain, action: 'delete' },
            label: `domain ${domain.domain}`,
            apply: async (manager) => {
              await this.domains.removeIn(manager, req, domain.id);
              announcements.push(() => this.domains.announce(domain.id));
            },
          }))
      : [];
    return { kept, deleted };
  }
}

/** The checks of every step (addresses looked up), all before the first step is applied. */
async function check(steps: Step[]): Promise<void> {
  await Promise.all(steps.map((step) => step.check?.()));
}

/** The changes by kind (IMPORT_KINDS' order), each kind's in the order planned: the document's, then the deletions. */
function report(steps: Step[]): ImportChange[] {
  const changes = steps.flatMap((step) => (step.change ? [step.change] : []));
  return IMPORT_KINDS.flatMap((kind) => changes.filter((change) => change.kind === kind));
}

/** A refusal of one item fails the whole import, naming the item: `breakers[3] (Payments): …`. */
function naming(label: string, error: unknown): unknown {
  if (!(error instanceof HttpException)) return error;
  const response = error.getResponse();
  const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
  return new HttpException(
    `${label}: ${Array.isArray(message) ? message.join('; ') : String(message ?? error.message)}`,
    error.getStatus(),
  );
}

/** The document's breaker as a configuration row: its type's own settings, null where the document leaves the default. */
function breakerSettings(item: BreakerItem) {
  const own = Object.fromEntries(BREAKER_TYPE_SETTINGS[item.type].map((setting) => [setting, item[setting] ?? null]));
  return {
    name: item.name,
    type: item.type,
    failureThreshold: item.failureThreshold,
    timeout: item.timeout,
    recoveryTime: item.recoveryTime,
    successThreshold: item.successThreshold,
    ...own,
  } as Pick<BreakerConfigEntity, (typeof BREAKER_FIELDS)[number] | 'minimumCalls' | 'slowCallDuration' | 'maxConcurrentCalls' | 'maxQueue'>;
}

/** A breaker as the document holds it, keys always in this order: its type's own settings only where set. */
function breakerItem(config: BreakerConfigEntity): BreakerItem {
  const item: Record<string, unknown> = Object.fromEntries(BREAKER_FIELDS.map((field) => [field, config[field]]));
  for (const setting of BREAKER_TYPE_SETTINGS[config.type]) if (config[setting] !== null) item[setting] = config[setting];
  return item as BreakerItem;
}

function serviceItem(service: ServiceEntity, breakerNames: Map<number, string>): ServiceItem {
  return {
    name: service.name,
    endpoint: service.endpoint === chaosPathOf(service.id) ? CHAOS_ENDPOINT : service.endpoint,
    failureRate: service.failureRate,
    averageResponseTime: service.averageResponseTime,
    breaker: service.circuitBreakerConfigId === null ? null : (breakerNames.get(service.circuitBreakerConfigId) ?? null),
  };
}

/** autoRenew only as the owner chose it: otherwise the checks infer it from the issuer, and it is not configuration. */
function domainItem(domain: DomainEntity, certificate: SslCertificateEntity | undefined): DomainItem {
  return certificate?.autoRenewOverridden ? { name: domain.domain, autoRenew: certificate.autoRenew } : { name: domain.domain };
}
