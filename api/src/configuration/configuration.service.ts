import { HttpException, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  BREAKER_TYPE_SETTINGS,
  CHAOS_ENDPOINT,
  CONFIG_DOCUMENT_VERSION,
  IMPORT_KINDS,
  type BreakerItem,
  type ConfigDocument,
  type CoreList,
  type DomainItem,
  hasPermission,
  type ImportChange,
  type ImportQuery,
  type ImportResult,
  type ServiceItem,
  type StatusPageView,
} from '@cbh/contracts';
import type { AppRequest } from '../identity';
import {
  BreakersService,
  chaosPathOf,
  ScrapeTargetsService,
  ServicesService,
  type BreakerConfigEntity,
  type ScrapeTargetEntity,
  type ServiceEntity,
} from '../breakers';
import { DomainsService, type DomainEntity, type SslCertificateEntity } from '../domains';
import { NotificationSettingsService, type NotificationConfiguration } from '../notifications';
import { exportNotifications, hasNotificationLists, mayImportNotifications, NotificationSteps } from './notification-steps';
import { ConfigurationRepository } from './configuration.repository';
import { appliedLists, omittedLists } from './document-access';
import { BREAKER_FIELDS, HubSteps, type HubItems } from './hub-steps';
import { byName, type Announcement, type Step } from './steps';
import { exportScrapeTargets, mayImportScrapeTargets, scrapeTargetSteps } from './scrape-target-steps';
import { exportStatusPages, mayImportStatusPages, memberNamesIn, statusPageSteps, type MemberNames } from './status-page-steps';
import { StatusPagesService } from '../status';
import { EscalationPoliciesService, SchedulesService } from '../on-call';
import { SlosService } from '../slos';
import { exportOnCall, mayImportOnCall, onCallHubIn, onCallSteps, type OnCallHub } from './on-call-steps';
import { exportSlos, mayImportSlos, sloSteps, type SloHub } from './slo-steps';
import { DrillDefinitionsService } from '../drills';
import { drillSteps, exportDrills, mayImportDrills, type DrillHub } from './drill-steps';

/** What the hub holds of what a document describes. */
interface Hub extends HubItems {
  /** Read only for a document with notification lists, or an export for a holder of circuit_breaker_admin. */
  notifications: NotificationConfiguration | null;
  /** The escalation policies' names by id, read with the notification lists (their rules name policies). */
  policyNames: Map<string, string>;
  /** Read only for a document with scrape targets, or an export for a holder of circuit_breaker_admin. */
  scrapeTargets: ScrapeTargetEntity[] | null;
  /** Read only for a document with on-call lists, or an export for a holder of circuit_breaker_admin. */
  onCall: OnCallHub | null;
  /** Read only for a document with status pages, or an export for a holder of circuit_breaker_admin. */
  statusPages: { pages: StatusPageView[]; names: MemberNames } | null;
  /** Read only for a document with SLOs, or an export for a holder of circuit_breaker_admin: those the caller may read. */
  slos: SloHub | null;
  /** Read only for a document with saved drills, or an export for a holder of circuit_breaker_admin. */
  drills: DrillHub | null;
}

/** Which of the optional lists to read: those the document has, or for an export those its caller may read. */
interface Reading {
  notifications: boolean;
  targets: boolean;
  pages: boolean;
  onCall: boolean;
  slos: boolean;
  drills: boolean;
}

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
    private readonly statusPages: StatusPagesService,
    private readonly schedules: SchedulesService,
    private readonly policies: EscalationPoliciesService,
    private readonly slos: SlosService,
    private readonly drills: DrillDefinitionsService,
  ) {}

  /**
   * The document, of the lists its caller may read (see document-access): the others are written empty (breakers,
   * services, domains) or not at all (the notification lists and scrape targets), and named in `omitted`.
   */
  async exportDocument(req: AppRequest): Promise<ConfigDocument> {
    const admin = hasPermission(req.user, 'circuit_breaker_admin');
    const omitted = omittedLists(req);
    const hub = await this.read(this.dataSource.manager, req, {
      notifications: admin,
      targets: admin,
      pages: admin,
      onCall: admin,
      slos: admin,
      drills: admin,
    });
    const breakerNames = new Map(hub.breakers.map((breaker) => [breaker.id, breaker.name]));
    const readable = <T>(list: CoreList, items: () => T[]): T[] => (omitted.includes(list) ? [] : items());
    return {
      version: CONFIG_DOCUMENT_VERSION,
      breakers: readable('breakers', () => hub.breakers.map(breakerItem).sort(byName)),
      services: readable('services', () => hub.services.map((service) => serviceItem(service, breakerNames)).sort(byName)),
      domains: readable('domains', () => hub.domains.map((domain) => domainItem(domain, hub.certificates.get(domain.id))).sort(byName)),
      ...(hub.notifications ? exportNotifications(req, hub.notifications, hub.policyNames) : {}),
      ...(hub.scrapeTargets ? { scrapeTargets: exportScrapeTargets(hub.scrapeTargets) } : {}),
      ...(hub.onCall ? exportOnCall(hub.onCall) : {}),
      ...(hub.statusPages ? { statusPages: exportStatusPages(req, hub.statusPages.pages, hub.statusPages.names) } : {}),
      ...(hub.slos ? { slos: exportSlos(hub.slos) } : {}),
      ...(hub.drills ? { drills: exportDrills(hub.drills) } : {}),
      ...(omitted.length > 0 ? { omitted } : {}),
    };
  }

  /**
   * The diff of the document against the hub; unless a dry run, applied in one transaction, all or nothing. Imports
   * on any replica take turns (an advisory lock), so each diffs against what the previous one left.
   */
  async import(req: AppRequest, document: ConfigDocument, { dryRun, prune }: ImportQuery): Promise<ImportResult> {
    mayImportNotifications(req, document);
    mayImportScrapeTargets(req, document);
    mayImportStatusPages(req, document.statusPages);
    mayImportOnCall(req, document);
    mayImportSlos(req, document.slos);
    mayImportDrills(req, document.drills);
    const lists = appliedLists(req, document);
    const reading: Reading = {
      notifications: hasNotificationLists(document),
      targets: document.scrapeTargets !== undefined,
      pages: document.statusPages !== undefined,
      onCall: document.schedules !== undefined || document.escalationPolicies !== undefined,
      slos: document.slos !== undefined,
      drills: document.drills !== undefined,
    };
    if (dryRun) {
      const steps = this.plan(req, document, lists, await this.read(this.dataSource.manager, req, reading), prune, []);
      await check(steps);
      return { changes: report(steps) };
    }
    const announcements: Announcement[] = [];
    const changes = await this.dataSource.transaction(async (manager) => {
      await this.repository.lockImports(manager);
      const steps = this.plan(req, document, lists, await this.read(manager, req, reading), prune, announcements);
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

  private async read(manager: EntityManager, req: AppRequest, reading: Reading): Promise<Hub> {
    // one after the other: in a transaction they share one connection
    const breakers = await this.breakers.hubConfigsIn(manager);
    const services = await this.services.allIn(manager);
    const { domains, certificates } = await this.domains.withCertificatesIn(manager);
    const notifications = reading.notifications ? await this.notifications.configurationIn(manager) : null;
    const policyNames = new Map(
      reading.notifications ? (await this.policies.allIn(manager)).map((policy) => [policy.id, policy.name]) : [],
    );
    const scrapeTargets = reading.targets ? await this.scrapeTargets.allIn(manager) : null;
    const names = reading.pages || reading.slos ? await memberNamesIn(manager, this.breakers, this.domains) : null;
    const statusPages = reading.pages && names ? { pages: await this.statusPages.allIn(manager), names } : null;
    const onCall = reading.onCall
      ? await onCallHubIn(manager, { schedules: this.schedules, policies: this.policies, notifications: this.notifications })
      : null;
    const slos = reading.slos && names ? { slos: await this.slos.allIn(manager, req), names } : null;
    const drills = reading.drills ? { definitions: await this.drills.allIn(manager), breakers: await this.breakers.refsIn(manager) } : null;
    return {
      drills,
      slos,
      onCall,
      policyNames,
      statusPages,
      scrapeTargets,
      breakers,
      services,
      domains,
      certificates,
      notifications,
    };
  }

  /**
   * Every item's change in the order they are applied: breakers, services and domains (see HubSteps), the saved
   * drills, then the notification settings (see NotificationSteps), scrape targets, on-call lists, status pages and
   * SLOs. The changes are reported by kind (see report).
   */
  private plan(
    req: AppRequest,
    document: ConfigDocument,
    lists: ReadonlySet<CoreList>,
    hub: Hub,
    prune: boolean,
    announcements: Announcement[],
  ): Step[] {
    const owners = { breakers: this.breakers, services: this.services, domains: this.domains };
    const items = new HubSteps(owners, req, document, hub, prune, announcements, lists).plan();
    // after the breakers their steps name
    const drills = drillSteps(this.drills, req, document, hub.drills ?? { definitions: [], breakers: [] }, prune);
    const notifications = hub.notifications
      ? new NotificationSteps(this.notifications, req, document, hub.notifications, prune, {
          names: hub.policyNames,
          idIn: (manager, name) => this.policies.idByNameIn(manager, name),
        }).plan()
      : { deleted: [], kept: [], rules: [] };
    const targets = scrapeTargetSteps(this.scrapeTargets, req, document.scrapeTargets, hub.scrapeTargets ?? [], prune, announcements);
    const onCall = hub.onCall
      ? onCallSteps(
          { schedules: this.schedules, policies: this.policies, notifications: this.notifications },
          req,
          document,
          hub.onCall,
          prune,
        )
      : { deleted: [], kept: [] };
    // last: their components name the breakers and domains the steps above may create
    const pages = statusPageSteps(
      { pages: this.statusPages, breakers: this.breakers, domains: this.domains },
      req,
      document.statusPages,
      hub.statusPages ?? { pages: [], names: { breakers: new Map(), domains: new Map() } },
      prune,
      announcements,
    );
    // after the breakers and domains their indicators name
    const slos = sloSteps(
      { slos: this.slos, breakers: this.breakers, domains: this.domains },
      req,
      document,
      hub.slos ?? { slos: [], names: { breakers: new Map(), domains: new Map() } },
      prune,
    );
    return [
      ...items,
      ...drills.deleted,
      ...drills.kept,
      ...notifications.deleted,
      ...notifications.kept,
      ...targets.deleted,
      ...targets.kept,
      ...onCall.deleted,
      ...onCall.kept,
      // after the policies they name
      ...notifications.rules,
      ...pages.deleted,
      ...pages.kept,
      ...slos.deleted,
      ...slos.kept,
    ];
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
