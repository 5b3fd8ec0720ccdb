import { BadRequestException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { breakerRefOf, hasPermission, type StatusPageItem, type StatusPageView } from '@cbh/contracts';
import { type AppRequest, requirePermission } from '../identity';
import type { BreakersService } from '../breakers';
import type { DomainsService } from '../domains';
import { mayPublishDomains, type StatusPagesService } from '../status';
import { key, unchanged, type Announcement, type Step } from './steps';

/*
 * Status pages in the configuration document: a breaker admin's list (exported only for holders of
 * circuit_breaker_admin, an import naming it needs it), keyed by slug. Components name their breakers as rules do and
 * their domains by name, since ids differ between hubs; they are resolved to ids when applied, inside the import's
 * transaction, so a breaker or domain the same document creates can be named.
 */

/** The names of the hub's breakers and domains by id, and back, as the document names them. */
export interface MemberNames {
  breakers: Map<number, string>;
  domains: Map<number, string>;
}

export async function memberNamesIn(manager: EntityManager, breakers: BreakersService, domains: DomainsService): Promise<MemberNames> {
  const refs = await breakers.refsIn(manager);
  const { domains: rows } = await domains.withCertificatesIn(manager);
  return {
    breakers: new Map(refs.map((ref) => [ref.id, breakerRefOf(ref)])),
    domains: new Map(rows.map((row) => [row.id, row.domain])),
  };
}

export function mayImportStatusPages(req: AppRequest, items: StatusPageItem[] | undefined) {
  if (items !== undefined) requirePermission(req, 'circuit_breaker_admin', { purpose: 'to import status pages' });
}

/** The hub's pages as the document holds them; domains written only for those who may read them (else left out: the import then refuses to drop them). */
export function exportStatusPages(req: AppRequest, pages: readonly StatusPageView[], names: MemberNames): StatusPageItem[] {
  const domainsReadable = hasPermission(req.user, 'domain_management');
  return pages.map((page) => toItem(page, names, domainsReadable));
}

function toItem(page: StatusPageView, names: MemberNames, domainsReadable = true): StatusPageItem {
  return {
    slug: page.slug,
    title: page.title,
    ...(page.description !== null && { description: page.description }),
    public: page.public,
    ...(page.accentColor !== null && { accentColor: page.accentColor }),
    components: page.components.map((component) => ({
      name: component.name,
      ...(component.description !== null && { description: component.description }),
      ...(component.group !== null && { group: component.group }),
      breakers: component.breakers.flatMap((id) => (names.breakers.has(id) ? [names.breakers.get(id)!] : [])),
      domains: domainsReadable ? component.domains.flatMap((id) => (names.domains.has(id) ? [names.domains.get(id)!] : [])) : [],
    })),
  };
}

/** The same item, as compared: key order and defaults aside. */
const canonical = (item: StatusPageItem) =>
  JSON.stringify({
    ...item,
    description: item.description ?? null,
    accentColor: item.accentColor ?? null,
    components: item.components.map((c) => ({ ...c, description: c.description ?? null, group: c.group ?? null })),
  });

/** Resolves a component's breaker and domain names to ids in the transaction, naming the place of one not found. */
async function withIds(manager: EntityManager, place: string, item: StatusPageItem, breakers: BreakersService, domains: DomainsService) {
  const names = await memberNamesIn(manager, breakers, domains);
  const breakerIds = new Map([...names.breakers].map(([id, name]) => [key(name), id]));
  const domainIds = new Map([...names.domains].map(([id, name]) => [key(name), id]));
  return item.components.map((component, index) => ({
    ...component,
    breakers: component.breakers.map((name) => {
      const id = breakerIds.get(key(name));
      if (id === undefined) throw new BadRequestException(`${place}.components[${index}].breakers: no breaker named ${name}`);
      return id;
    }),
    domains: component.domains.map((name) => {
      const id = domainIds.get(key(name));
      if (id === undefined) throw new BadRequestException(`${place}.components[${index}].domains: no domain named ${name}`);
      return id;
    }),
  }));
}

/** The steps of a document's status pages against the hub's: deletions (with prune) first; nothing without the list. */
export function statusPageSteps(
  owners: { pages: StatusPagesService; breakers: BreakersService; domains: DomainsService },
  req: AppRequest,
  items: StatusPageItem[] | undefined,
  hub: { pages: readonly StatusPageView[]; names: MemberNames },
  prune: boolean,
  announcements: Announcement[],
): { deleted: Step[]; kept: Step[] } {
  if (!items) return { deleted: [], kept: [] };
  const existing = new Map(hub.pages.map((page) => [key(page.slug), page]));
  const kept = items.map((item, index): Step => {
    const place = `statusPages[${index}]`;
    const label = `${place} (${item.slug})`;
    const page = existing.get(key(item.slug));
    if (page && canonical(toItem(page, hub.names)) === canonical(item)) return unchanged('statusPage', page.slug, label);
    const announce = () => announcements.push(() => owners.pages.changed(page ? [page.id] : [], true));
    // before any name is looked up, in a dry run too: whether a domain exists is not told to who may not read domains
    const check = async () => mayPublishDomains(req, [...item.components, ...(page?.components ?? [])]);
    if (!page) {
      return {
        change: { kind: 'statusPage', name: item.slug, action: 'create' },
        label,
        check,
        apply: async (manager) => {
          const components = await withIds(manager, place, item, owners.breakers, owners.domains);
          await owners.pages.createIn(manager, req, { ...item, components });
          announce();
        },
      };
    }
    const before = toItem(page, hub.names) as Record<string, unknown>;
    const fields = (['title', 'description', 'public', 'accentColor', 'components'] as const).filter(
      (field) => JSON.stringify(before[field] ?? null) !== JSON.stringify((item as Record<string, unknown>)[field] ?? null),
    );
    return {
      change: { kind: 'statusPage', name: item.slug, action: 'update', fields },
      label,
      check,
      apply: async (manager) => {
        const components = await withIds(manager, place, item, owners.breakers, owners.domains);
        await owners.pages.updateIn(manager, req, page.id, {
          title: item.title,
          description: item.description ?? null,
          public: item.public,
          accentColor: item.accentColor ?? null,
          components,
        });
        announce();
      },
    };
  });
  const named = new Set(items.map((item) => key(item.slug)));
  const deleted = prune
    ? hub.pages
        .filter((page) => !named.has(key(page.slug)))
        .map((page): Step => ({
          change: { kind: 'statusPage', name: page.slug, action: 'delete' },
          label: `status page ${page.slug}`,
          apply: async (manager) => {
            await owners.pages.removeIn(manager, req, page.id);
            announcements.push(() => owners.pages.changed([page.id], true));
          },
        }))
    : [];
  return { deleted, kept };
}
