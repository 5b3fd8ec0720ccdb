import { readFileSync } from 'node:fs';
import type { CreateSlo, SloView, UpdateSlo } from '@cbh/contracts';
import {
  fromOpenSlo,
  OpenSloImportError,
  prometheusRules,
  toOpenSlo,
  UnsupportedIndicatorError,
  type BreakerRef,
} from '@cbh/slo-interchange';
import { LineCounter, parseAllDocuments } from 'yaml';
import { allBreakers } from './breaker-controls';
import { CliError, HubRefusal } from './cli-error';
import type { HubClient } from './hub-client';
import type { Change } from './import-report';
import type { Progress } from './progress';

/*
 * The hub's SLOs from the command line, through GET/POST/PATCH/DELETE /api/slos: exported as the hub's JSON or as
 * OpenSLO v1 YAML, applied from OpenSLO files (matched by name), and written as Prometheus rules. The conversions are
 * @cbh/slo-interchange's.
 */

const JSON_BODY = 'application/json';

/** An OpenSLO file as `cbh apply` reads it: its text, and the line each of its SLO documents starts on. */
export interface OpenSloFile {
  name: string;
  text: string;
  /** Where each non-empty document starts (from 1), in the order fromOpenSlo returns their SLOs. */
  lines: number[];
}

/**
 * The file when it is OpenSLO (a document of it says `apiVersion: openslo/…`; the hub's configuration document has
 * `version` instead), else null, also when it cannot be read: ConfigFile.read then says why.
 */
export function readOpenSloFile(name: string): OpenSloFile | null {
  if (!/\.ya?ml$/i.test(name)) return null;
  let text: string;
  try {
    text = readFileSync(name, 'utf8');
  } catch {
    return null;
  }
  const counter = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter: counter });
  const values = documents.map((document) => (document.errors.length ? null : (document.toJS() as unknown)));
  const openslo = values.some((value) => String((value as { apiVersion?: unknown } | null)?.apiVersion ?? '').startsWith('openslo/'));
  if (!openslo) return null;
  const lines = documents.flatMap((document, i) =>
    values[i] === null || values[i] === undefined ? [] : [counter.linePos(document.contents?.range?.[0] ?? 0).line],
  );
  return { name, text, lines };
}

/** One SLO of the file against the hub: what applying does to it, and the request that does it. */
interface SloChange extends Change {
  /** Where it is in the file, `hub.yaml:14`; the hub's own for one --prune deletes. */
  at: string;
  send?: () => Promise<unknown>;
}

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );

/** The fields of `body` that differ from the hub's SLO (the name only by its letter case: it is how they were matched). */
function differing(current: SloView, body: CreateSlo): (keyof CreateSlo)[] {
  const fields: (keyof CreateSlo)[] = [];
  if (current.name !== body.name) fields.push('name');
  if ((current.description || null) !== (body.description || null)) fields.push('description');
  if (Number(current.target) !== body.target) fields.push('target');
  if (current.window !== body.window) fields.push('window');
  if (canonical(current.indicator) !== canonical(body.indicator)) fields.push('indicator');
  return fields;
}

/** What applying the file's SLOs would do, each with its request; with `prune`, the hub's SLOs the file lacks are deleted. */
async function planSlos(hub: HubClient, file: OpenSloFile, prune: boolean): Promise<SloChange[]> {
  let bodies: CreateSlo[];
  try {
    bodies = fromOpenSlo(file.text);
  } catch (error) {
    if (!(error instanceof OpenSloImportError)) throw error;
    const lines = error.problems.map(
      (problem) =>
        `${file.name}${problem.line === null ? '' : `:${problem.line}:${problem.column}`}: document ${problem.document}: ${problem.path ? `${problem.path}: ` : ''}${problem.message}`,
    );
    throw new CliError(`${file.name} is not an OpenSLO file the hub can take; nothing was sent:\n${lines.join('\n')}`);
  }
  // the hub keeps names unique whatever their letter case, so "checkout calls" is "Checkout calls"
  const hubSlos = await hub.json<SloView[]>('/api/slos');
  const byName = new Map(hubSlos.map((slo) => [slo.name.toLowerCase(), slo]));
  const send = (path: string, method: string, body?: CreateSlo | UpdateSlo) => () =>
    hub.send(path, { method, contentType: body ? JSON_BODY : undefined, body: body ? JSON.stringify(body) : undefined });

  const changes = bodies.map((body, i): SloChange => {
    const at = `${file.name}:${file.lines[i] ?? 1}`;
    const current = byName.get(body.name.toLowerCase());
    if (!current) return { kind: 'slo', name: body.name, action: 'create', at, send: send('/api/slos', 'POST', body) };
    const fields = differing(current, body);
    if (!fields.length) return { kind: 'slo', name: body.name, action: 'unchanged', at };
    // only what differs: `description: null` clears one the file no longer has
    const patch = Object.fromEntries(fields.map((field) => [field, body[field] ?? null])) as UpdateSlo;
    return { kind: 'slo', name: body.name, action: 'update', fields, at, send: send(`/api/slos/${current.id}`, 'PATCH', patch) };
  });
  if (prune) {
    const named = new Set(bodies.map((body) => body.name.toLowerCase()));
    for (const slo of hubSlos.filter((candidate) => !named.has(candidate.name.toLowerCase()))) {
      changes.push({
        kind: 'slo',
        name: slo.name,
        action: 'delete',
        at: `${hub.url}/api/slos/${slo.id}`,
        send: send(`/api/slos/${slo.id}`, 'DELETE'),
      });
    }
  }
  return changes;
}

/**
 * `cbh diff` and `cbh apply` of an OpenSLO file: the changes (a dry run changes nothing), each applied in turn, so a
 * refusal stops there with the SLOs before it applied (their lines printed) and those after it not.
 */
export async function applyOpenSlo(
  hub: HubClient,
  file: OpenSloFile,
  { dryRun, prune, progress, print }: { dryRun: boolean; prune: boolean; progress: Progress; print: (change: Change) => void },
): Promise<Change[]> {
  progress.show(`${dryRun ? 'Comparing' : 'Applying'} the SLOs of ${file.name} ${dryRun ? 'with' : 'to'} ${hub.url}…`);
  try {
    const changes = await planSlos(hub, file, prune);
    for (const change of changes) {
      if (!dryRun && change.send) {
        try {
          await change.send();
        } catch (error) {
          if (!(error instanceof HubRefusal)) throw error;
          const index = changes.indexOf(change);
          const applied = changes.slice(0, index).filter((before) => before.send).length;
          const later = changes.slice(index + 1).some((after) => after.send);
          const done = applied
            ? `The ${applied} change${applied === 1 ? '' : 's'} before it ${applied === 1 ? 'was' : 'were'} applied`
            : 'Nothing was applied';
          throw new CliError(`${change.at}: slo ${change.name}: ${error.message}\n${done}${later ? '; those after it were not' : ''}.`);
        }
      }
      progress.stop();
      if (change.action !== 'unchanged') print(change);
    }
    return changes;
  } finally {
    progress.stop();
  }
}

/** GET /api/slos as the hub's JSON, byte for byte, or as OpenSLO v1 YAML. */
export async function exportSlos(hub: HubClient, openslo: boolean): Promise<{ text: string; count: number }> {
  const response = await hub.send('/api/slos');
  const text = await response.text();
  let slos: SloView[];
  try {
    slos = JSON.parse(text) as SloView[];
  } catch {
    throw new CliError(`${hub.url} answered GET /api/slos with something other than JSON: is CBH_URL the hub's address?`);
  }
  return { text: openslo ? toOpenSlo(slos) : text, count: slos.length };
}

/** The SLO's Prometheus rules: by id (digits) or by name, whatever its letter case. */
export async function sloRules(hub: HubClient, which: string): Promise<string> {
  let slo: SloView | undefined;
  if (/^\d+$/.test(which)) {
    try {
      slo = await hub.json<SloView>(`/api/slos/${which}`);
    } catch (error) {
      if (error instanceof HubRefusal && error.status === 404) throw new CliError(`No SLO with id ${which} on the hub`);
      throw error;
    }
  } else {
    slo = (await hub.json<SloView[]>('/api/slos')).find((candidate) => candidate.name.toLowerCase() === which.toLowerCase());
    if (!slo) throw new CliError(`No SLO named "${which}" on the hub (cbh slo export lists them)`);
  }
  // breakers named by id are found at /metrics by their names
  const breakers: BreakerRef[] =
    'breakers' in slo.indicator && slo.indicator.breakers
      ? (await allBreakers(hub)).map(({ id, name, service }) => ({ id, name, service }))
      : [];
  try {
    return prometheusRules(slo, { breakers });
  } catch (error) {
    if (error instanceof UnsupportedIndicatorError) throw new CliError(`SLO ${slo.name}: ${error.message}`);
    throw error;
  }
}
