import { BadRequestException, HttpException } from '@nestjs/common';
import {
  envReference,
  isEnvReference,
  scrapeTokenVariable,
  type ConfigDocument,
  type ScrapeTargetItem,
  type UpdateScrapeTarget,
} from '@cbh/contracts';
import { type AppRequest, requirePermission } from '../identity';
import type { ScrapeTargetEntity, ScrapeTargetsService } from '../breakers';
import { movesOrigin } from '../platform';
import { byName, key, unchanged, type Step } from './steps';

/*
 * The Prometheus endpoints the hub scrapes, in the configuration document: a breaker admin's, like the notification
 * lists (exported only for holders of circuit_breaker_admin, an import naming them needs it). A target's bearer
 * token never leaves the hub: export writes the reference ${env:CBH_SCRAPE_<NAME>_TOKEN}, which cbh fills in.
 */

/** A document naming scrape targets is refused (403) to an account without circuit_breaker_admin, before anything is read. */
export function mayImportScrapeTargets(req: AppRequest, document: ConfigDocument) {
  if (document.scrapeTargets !== undefined) requirePermission(req, 'circuit_breaker_admin', { purpose: 'to import scrape targets' });
}

export function exportScrapeTargets(rows: readonly ScrapeTargetEntity[]): ScrapeTargetItem[] {
  return rows
    .map((row) => ({
      name: row.name,
      url: row.url,
      intervalSeconds: row.intervalSeconds,
      ...(row.bearerTokenSealed !== null ? { bearerToken: envReference(scrapeTokenVariable(row.name)) } : {}),
    }))
    .sort(byName);
}

/**
 * The steps of a document's scrape targets against the hub's: deletions (with prune) first. A reference left unfilled
 * keeps the token the hub has, and is refused where there is none to keep. Deleting a target deletes its breakers;
 * renaming it renames their service (both announced once the import commits).
 */
export function scrapeTargetSteps(
  targets: ScrapeTargetsService,
  req: AppRequest,
  items: ScrapeTargetItem[] | undefined,
  hub: readonly ScrapeTargetEntity[],
  prune: boolean,
  announcements: (() => Promise<unknown>)[],
): { deleted: Step[]; kept: Step[] } {
  if (!items) return { deleted: [], kept: [] };
  const existing = new Map(hub.map((row) => [key(row.name), row]));
  const judge = (place: string, url: string) => async () => {
    try {
      await targets.judgeUrl(url);
    } catch (error) {
      if (error instanceof HttpException) throw new BadRequestException(`${place}.${error.message}`);
      throw error;
    }
  };
  const kept = items.map((item, index): Step => {
    const place = `scrapeTargets[${index}]`;
    const label = `${place} (${item.name})`;
    const row = existing.get(key(item.name));
    if (!row) {
      if (isEnvReference(item.bearerToken)) {
        throw new BadRequestException(
          `${place}.bearerToken: ${item.bearerToken} is not set where the document was read: set it or give the token`,
        );
      }
      return {
        change: { kind: 'scrapeTarget', name: item.name, action: 'create' },
        label,
        check: judge(place, item.url),
        apply: async (manager) => {
          await targets.createIn(manager, req, item);
        },
      };
    }
    const patch: UpdateScrapeTarget = {};
    if (item.name !== row.name) patch.name = item.name;
    if (item.url !== row.url) patch.url = item.url;
    if (item.intervalSeconds !== row.intervalSeconds) patch.intervalSeconds = item.intervalSeconds;
    if (item.bearerToken === undefined) {
      if (row.bearerTokenSealed !== null) patch.bearerToken = null;
    } else if (isEnvReference(item.bearerToken)) {
      if (movesOrigin(row.url, item.url)) {
        throw new BadRequestException(
          `${place}.bearerToken: ${item.bearerToken} is not set where the document was read, and the URL moves to ${new URL(item.url).origin}: the hub's token goes to another origin only when given again`,
        );
      }
      if (row.bearerTokenSealed === null) {
        throw new BadRequestException(
          `${place}.bearerToken: ${item.bearerToken} is not set where the document was read, and the hub's target has no token to keep: set it or give the token`,
        );
      }
    } else if (item.bearerToken !== targets.tokenOf(row) || movesOrigin(row.url, item.url)) {
      // to another origin the token goes only when given again: the document gives it, the same or not
      patch.bearerToken = item.bearerToken;
    }
    const fields = Object.keys(patch);
    if (fields.length === 0) return unchanged('scrapeTarget', row.name, label);
    return {
      change: { kind: 'scrapeTarget', name: item.name, action: 'update', fields },
      label,
      check: patch.url === undefined ? undefined : judge(place, patch.url),
      apply: async (manager) => {
        await targets.updateIn(manager, req, row.id, patch);
        if (patch.name !== undefined) announcements.push(() => targets.announceBreakersOf(item.name));
      },
    };
  });
  const named = new Set(items.map((item) => key(item.name)));
  const deleted = prune
    ? hub
        .filter((row) => !named.has(key(row.name)))
        .sort(byName)
        .map((row): Step => ({
          change: { kind: 'scrapeTarget', name: row.name, action: 'delete' },
          label: `scrape target ${row.name}`,
          apply: async (manager) => {
            const gone = await targets.removeIn(manager, req, row.id);
            announcements.push(() => targets.announceRemoval(gone));
          },
        }))
    : [];
  return { deleted, kept };
}
