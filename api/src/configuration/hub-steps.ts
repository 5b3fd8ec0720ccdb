import { HttpException } from '@nestjs/common';
import { BREAKER_TYPE_SETTINGS, CHAOS_ENDPOINT, type BreakerItem, type ConfigDocument, type CoreList } from '@cbh/contracts';
import type { AppRequest } from '../identity';
import {
  type BreakerChanges,
  type BreakerConfigEntity,
  type BreakersService,
  chaosPathOf,
  type ServiceEntity,
  type ServicesService,
} from '../breakers';
import type { DomainEntity, DomainsService, SslCertificateEntity } from '../domains';
import { mayChange } from './document-access';
import { byName, key, unchanged, type Announcement, type Step } from './steps';

/** What the hub holds of the document's breakers, services and domains. */
export interface HubItems {
  breakers: BreakerConfigEntity[];
  services: ServiceEntity[];
  domains: DomainEntity[];
  certificates: Map<number, SslCertificateEntity>;
}

export interface HubOwners {
  breakers: BreakersService;
  services: ServicesService;
  domains: DomainsService;
}

export const BREAKER_FIELDS = ['name', 'type', 'failureThreshold', 'timeout', 'recoveryTime', 'successThreshold'] as const;
const SERVICE_FIELDS = ['name', 'endpoint', 'failureRate', 'averageResponseTime'] as const;

/** Items created or updated by one statement at most: far inside PostgreSQL's limit of parameters to one statement. */
const BATCH = 500;

function batches<T>(items: T[]): T[][] {
  return Array.from({ length: Math.ceil(items.length / BATCH) }, (_, index) => items.slice(index * BATCH, (index + 1) * BATCH));
}

/**
 * The steps of the document's breakers, services and domains, in the order they are applied: breakers before the
 * services that name them, services deleted before the breakers they used, domains deleted before new ones count
 * against the quotas. Only the lists `applied` names are planned (see appliedLists); every item created, changed or
 * deleted needs its list's own permission, refused (403, naming the item) while planning, so in a dry run too.
 */
export class HubSteps {
  constructor(
    private readonly owners: HubOwners,
    private readonly req: AppRequest,
    private readonly document: ConfigDocument,
    private readonly hub: HubItems,
    private readonly prune: boolean,
    private readonly announcements: Announcement[],
    private readonly applied: ReadonlySet<CoreList>,
  ) {}

  plan(): Step[] {
    const breakers = this.breakers();
    const services = this.services(breakers.ids);
    const domains = this.domains();
    return [...breakers.kept, ...services.deleted, ...services.kept, ...breakers.deleted, ...domains.deleted, ...domains.kept];
  }

  private breakers() {
    const { req, hub, announcements } = this;
    const { breakers } = this.owners;
    /** Each breaker's id by name once the earlier steps ran: the services' steps look theirs up here. */
    const ids = new Map(hub.breakers.map((breaker) => [key(breaker.name), breaker.id]));
    if (!this.applied.has('breakers')) return { kept: [], deleted: [], ids };
    const items = this.document.breakers;
    const existing = new Map(hub.breakers.map((breaker) => [key(breaker.name), breaker]));
    const created: BreakerItem[] = [];
    const updated: { id: number; changes: BreakerChanges }[] = [];
    const kept = items.map((item, index): Step => {
      const label = `breakers[${index}] (${item.name})`;
      const current = existing.get(key(item.name));
      const settings = breakerSettings(item);
      if (!current) {
        mayChange(req, 'breakers', label, 'create');
        created.push(item);
        return { change: { kind: 'breaker', name: item.name, action: 'create' }, label };
      }
      const fields = (Object.keys(settings) as (keyof typeof settings)[]).filter((field) => settings[field] !== current[field]);
      if (fields.length === 0) return unchanged('breaker', current.name, label);
      mayChange(req, 'breakers', label, 'change');
      updated.push({ id: current.id, changes: Object.fromEntries(fields.map((field) => [field, settings[field]])) as BreakerChanges });
      return { change: { kind: 'breaker', name: item.name, action: 'update', fields }, label };
    });
    for (const batch of batches(updated)) {
      kept.push({
        label: 'breakers',
        apply: async (manager) => {
          for (const config of await breakers.updateManyIn(manager, req, batch)) {
            announcements.push(() => breakers.announceChange(config));
          }
        },
      });
    }
    for (const batch of batches(created)) {
      kept.push({
        label: 'breakers',
        apply: async (manager) => {
          for (const config of await breakers.createManyIn(manager, req, batch)) {
            ids.set(key(config.name), config.id);
            announcements.push(() => breakers.announceChange(config));
          }
        },
      });
    }
    const named = new Set(items.map((item) => key(item.name)));
    const deleted = this.prune
      ? hub.breakers
          .filter((breaker) => !named.has(key(breaker.name)))
          .sort(byName)
          .map((breaker): Step => {
            const label = `breaker ${breaker.name}`;
            mayChange(req, 'breakers', label, 'delete');
            return {
              change: { kind: 'breaker', name: breaker.name, action: 'delete' },
              label,
              apply: async (manager) => {
                await breakers.removeIn(manager, req, breaker.id);
                announcements.push(() => breakers.announceRemoval(breaker.id));
              },
            };
          })
      : [];
    return { kept, deleted, ids };
  }

  private services(breakerIds: Map<string, number>) {
    if (!this.applied.has('services')) return { kept: [], deleted: [] };
    const { req, hub, document, prune, announcements } = this;
    const { services } = this.owners;
    const existing = new Map(hub.services.map((service) => [key(service.name), service]));
    const breakerNames = new Map(hub.breakers.map((breaker) => [breaker.id, breaker.name]));
    // a service may name a breaker of the document, or one the hub keeps (every breaker, unless pruning them)
    const prunesBreakers = prune && this.applied.has('breakers');
    const nameable = new Set([
      ...(this.applied.has('breakers') ? document.breakers : []).map((breaker) => key(breaker.name)),
      ...(prunesBreakers ? [] : hub.breakers.map((b) => key(b.name))),
    ]);
    const kept = document.services.map((item, index): Step => {
      const label = `services[${index}] (${item.name})`;
      if (item.breaker !== null && !nameable.has(key(item.breaker))) {
        throw new HttpException(
          `services[${index}].breaker: no breaker named ${item.breaker} in the document${prunesBreakers ? '' : ' or the hub'}`,
          400,
        );
      }
      const breakerId = () => (item.breaker === null ? null : breakerIds.get(key(item.breaker))!);
      const current = existing.get(key(item.name));
      const settings = { name: item.name, failureRate: item.failureRate, averageResponseTime: item.averageResponseTime };
      if (!current) {
        mayChange(req, 'services', label, 'create');
        return {
          change: { kind: 'service', name: item.name, action: 'create' },
          label,
          apply: async (manager) => {
            const input = { ...settings, endpoint: item.endpoint, circuitBreakerConfigId: breakerId() };
            const created = await services.createIn(manager, req, input, { ownChaosTarget: item.endpoint === CHAOS_ENDPOINT });
            announcements.push(() => services.announceChange(created));
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
      mayChange(req, 'services', label, 'change');
      return {
        change: { kind: 'service', name: item.name, action: 'update', fields },
        label,
        apply: async (manager) => {
          const changes = Object.fromEntries(
            fields.filter((field) => field !== 'breaker').map((field) => [field, wanted[field as keyof typeof wanted]]),
          );
          const updated = await services.updateIn(manager, req, current.id, {
            ...changes,
            ...(fields.includes('breaker') ? { circuitBreakerConfigId: breakerId() } : {}),
          });
          announcements.push(() => services.announceChange(updated));
        },
      };
    });
    const named = new Set(document.services.map((item) => key(item.name)));
    const deleted = prune
      ? hub.services
          .filter((service) => !named.has(key(service.name)))
          .sort(byName)
          .map((service): Step => {
            const label = `service ${service.name}`;
            mayChange(req, 'services', label, 'delete');
            return {
              change: { kind: 'service', name: service.name, action: 'delete' },
              label,
              apply: async (manager) => {
                await services.removeIn(manager, req, service.id);
                announcements.push(() => services.announceRemoval(service.id));
              },
            };
          })
      : [];
    return { kept, deleted };
  }

  private domains() {
    if (!this.applied.has('domains')) return { kept: [], deleted: [] };
    const { req, hub, announcements } = this;
    const { domains } = this.owners;
    const items = this.document.domains;
    const existing = new Map(hub.domains.map((domain) => [domain.domain, domain]));
    const created: string[] = [];
    const kept = items.map((item, index): Step => {
      const label = `domains[${index}] (${item.name})`;
      const current = existing.get(item.name);
      if (!current) {
        mayChange(req, 'domains', label, 'create');
        created.push(item.name);
        return { change: { kind: 'domain', name: item.name, action: 'create' }, label };
      }
      // A certificate exists once a check has read it: until then there is no choice to keep, and autoRenew waits.
      const certificate = hub.certificates.get(current.id);
      const autoRenew = item.autoRenew;
      if (autoRenew === undefined || !certificate || (certificate.autoRenewOverridden && certificate.autoRenew === autoRenew)) {
        return unchanged('domain', current.domain, label);
      }
      mayChange(req, 'domains', label, 'change');
      return {
        change: { kind: 'domain', name: item.name, action: 'update', fields: ['autoRenew'] },
        label,
        apply: async (manager) => {
          await domains.updateCertificateIn(manager, req, certificate.id, autoRenew);
          announcements.push(() => domains.announce(current.id));
        },
      };
    });
    for (const batch of batches(created)) {
      kept.push({
        label: 'domains',
        apply: async (manager) => {
          for (const domain of await domains.createManyIn(manager, req, batch)) {
            announcements.push(() => domains.announce(domain.id));
          }
        },
      });
    }
    const named = new Set(items.map((item) => item.name));
    const deleted = this.prune
      ? hub.domains
          .filter((domain) => !named.has(domain.domain))
          .sort((a, b) => (a.domain < b.domain ? -1 : 1))
          .map((domain): Step => {
            const label = `domain ${domain.domain}`;
            mayChange(req, 'domains', label, 'delete');
            return {
              change: { kind: 'domain', name: domain.domain, action: 'delete' },
              label,
              apply: async (manager) => {
                await domains.removeIn(manager, req, domain.id);
                announcements.push(() => domains.announce(domain.id));
              },
            };
          })
      : [];
    return { kept, deleted };
  }
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
