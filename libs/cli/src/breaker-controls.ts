import {
  BULK_MAX_IDS,
  LIST_PAGE_LIMITS,
  MANUAL_ACTION_TEXT,
  type BreakerConfigView,
  type BulkItemOutcome,
  type BulkResult,
  type ManualAction,
} from '@cbh/contracts';
import { CliError } from './cli-error';
import type { HubClient } from './hub-client';
import { count, type Progress } from './progress';

/** Every breaker on the hub, page by page (GET /api/circuit-breakers answers at most a page of them at a time). */
export async function allBreakers(hub: HubClient): Promise<BreakerConfigView[]> {
  const breakers: BreakerConfigView[] = [];
  for (;;) {
    const after = breakers.at(-1)?.id;
    const query = new URLSearchParams({ limit: String(LIST_PAGE_LIMITS.max), ...(after ? { after: String(after) } : {}) });
    const page = await hub.json<BreakerConfigView[]>(`/api/circuit-breakers?${query}`);
    breakers.push(...page);
    if (page.length < LIST_PAGE_LIMITS.max) return breakers;
  }
}

/**
 * A manual control on the breakers named, through POST /api/circuit-breakers/bulk (500 at a time): every name is
 * looked up first, and one unknown name stops everything. Each breaker then succeeds or fails on its own; the
 * lines say which. Resolves to whether every one succeeded.
 */
export async function controlBreakers(hub: HubClient, action: ManualAction, names: string[], progress: Progress): Promise<boolean> {
  progress.show(`Looking up ${count(names.length)} breaker${names.length === 1 ? '' : 's'} on ${hub.url}…`);
  // the hub keeps names unique whatever their letter case, so "search api" names "Search API"
  const byName = new Map((await allBreakers(hub)).map((breaker) => [breaker.name.toLowerCase(), breaker]));
  const unknown = names.filter((name) => !byName.has(name.toLowerCase()));
  if (unknown.length) {
    progress.stop();
    throw new CliError(`No breaker named ${unknown.map((name) => `"${name}"`).join(', ')} on the hub; nothing was changed`);
  }
  const chosen = new Map(names.map((name) => byName.get(name.toLowerCase())!).map((breaker) => [breaker.id, breaker.name]));
  const ids = [...chosen.keys()];
  const text = MANUAL_ACTION_TEXT[action];
  const outcomes: BulkItemOutcome[] = [];
  for (let start = 0; start < ids.length; start += BULK_MAX_IDS) {
    progress.show(`${text.label}: ${count(start)} of ${count(ids.length)} breakers…`);
    const { results } = await hub.json<BulkResult>('/api/circuit-breakers/bulk', {
      method: 'POST',
      contentType: 'application/json',
      body: JSON.stringify({ action, ids: ids.slice(start, start + BULK_MAX_IDS) }),
    });
    outcomes.push(...results);
  }
  progress.stop();

  for (const outcome of outcomes) {
    const name = chosen.get(outcome.id) ?? `#${outcome.id}`;
    console.log(outcome.ok ? `✓ ${name}` : `✗ ${name}: ${outcome.message ?? 'failed'} (${outcome.status})`);
  }
  const failed = outcomes.filter((outcome) => !outcome.ok).length;
  const done = text.done.replace(/^Breaker /, '');
  console.log(
    failed
      ? `${count(outcomes.length - failed)} of ${count(outcomes.length)} breakers ${done}; ${count(failed)} failed`
      : `${count(outcomes.length)} breaker${outcomes.length === 1 ? '' : 's'} ${done}`,
  );
  return failed === 0;
}
