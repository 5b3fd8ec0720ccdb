import { createSloSchema, SLO_WINDOWS, type CreateSlo, type SloWindow } from '@cbh/contracts';
import { isMap, LineCounter, parseAllDocuments, type Document } from 'yaml';
import type { z } from 'zod';
import { FULL_DESCRIPTION_ANNOTATION } from './openslo-export';
import { OPENSLO_KINDS, opensloSloSchema, type OpenSloMetricSource, type OpenSloSlo } from './openslo-schema';
import { CBH_SOURCE_TYPE, percentOfPercent, percentOfRatio, type CountedEvents } from './slo-definition';

type Path = readonly (string | number)[];

/** Why a document cannot be imported, and where. */
export interface OpenSloProblem {
  /** The document of the file, 1 for the first. */
  document: number;
  /** The place in the document, `spec.objectives[0].target`; empty for the document as a whole. */
  path: string;
  message: string;
  /** Where that place is in the text (from 1), when the document has it. */
  line: number | null;
  column: number | null;
}

/** Every problem of every document, each on its own line: `3:5: document 1: spec.budgetingMethod: …`. */
export class OpenSloImportError extends Error {
  constructor(readonly problems: readonly OpenSloProblem[]) {
    super(problems.map(problemLine).join('\n'));
    this.name = 'OpenSloImportError';
  }
}

export function problemLine(problem: OpenSloProblem): string {
  const at = problem.line === null ? '' : `${problem.line}:${problem.column}: `;
  return `${at}document ${problem.document}: ${problem.path ? `${problem.path}: ` : ''}${problem.message}`;
}

export const pathText = (path: Path) =>
  path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${key}` : key), '');

/** Where the hub's SLO fields come from in an OpenSLO document, to point a refusal of createSloSchema there. */
const GOOD_SOURCE: Path = ['spec', 'indicator', 'spec', 'ratioMetric', 'good', 'metricSource'];
const WINDOW_ALIASES: Record<string, SloWindow> = { '1w': '7d', '4w': '28d' };
const ONLY_HUB_INDICATORS =
  "only the hub's own indicators can be imported: a metric source of type cbh, as `cbh slo export --openslo` writes it";

/**
 * The SLOs of an OpenSLO v1 YAML file (one or more documents) as bodies of POST /api/slos, in the file's order. Each
 * document is held to OpenSLO v1's SLO schema, then to what the hub can hold: an inline ratio indicator whose good and
 * total metric sources are the hub's own (`type: cbh`), counted by occurrences over a rolling 7d, 28d or 30d window,
 * with one objective. The name is metadata.displayName (else metadata.name). Every problem of every document is
 * thrown together as an OpenSloImportError; empty documents are skipped.
 */
export function fromOpenSlo(text: string): CreateSlo[] {
  const lines = new LineCounter();
  const problems: OpenSloProblem[] = [];
  const bodies: CreateSlo[] = [];
  const named = new Map<string, number>();
  parseAllDocuments(text, { lineCounter: lines, prettyErrors: false }).forEach((document, index) => {
    const number = index + 1;
    const problem = (path: Path, message: string) => problems.push({ document: number, ...placeOf(document, lines, path), message });
    if (document.errors.length > 0) {
      for (const error of document.errors) {
        const [line, column] = error.linePos?.[0] ? [error.linePos[0].line, error.linePos[0].col] : [null, null];
        problems.push({ document: number, path: '', message: `not YAML: ${error.message}`, line, column });
      }
      return;
    }
    const value = document.toJS() as unknown;
    // a `---` that ends the file opens a document with nothing in it
    if (value === null || value === undefined) return;
    const body = readDocument(value, problem);
    if (body === null) return;
    // the hub's names are unique whatever their letter case
    const twin = named.get(body.name.toLowerCase());
    if (twin !== undefined) {
      problem(['metadata', 'displayName'], `document ${twin} has the same name: each SLO of the hub has a name of its own`);
    }
    named.set(body.name.toLowerCase(), number);
    bodies.push(body);
  });
  if (problems.length > 0) throw new OpenSloImportError(problems);
  return bodies;
}

/** The body of one document, or null when it has problems (each told to `problem`). */
function readDocument(value: unknown, problem: (path: Path, message: string) => void): CreateSlo | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problem([], 'must be a mapping: an OpenSLO document with apiVersion, kind, metadata and spec');
    return null;
  }
  const { apiVersion, kind } = value as { apiVersion?: unknown; kind?: unknown };
  if (apiVersion !== 'openslo/v1') {
    problem(
      apiVersion === undefined ? [] : ['apiVersion'],
      apiVersion === undefined
        ? 'has no apiVersion: it is not an OpenSLO document (apiVersion: openslo/v1, kind: SLO)'
        : `is ${JSON.stringify(apiVersion)}: only OpenSLO v1 documents (apiVersion: openslo/v1) can be read`,
    );
    return null;
  }
  if (kind !== 'SLO') {
    const known = (OPENSLO_KINDS as readonly unknown[]).includes(kind);
    problem(['kind'], known ? `is ${String(kind)}: only SLO documents can be imported` : `is ${JSON.stringify(kind)}: must be SLO`);
    return null;
  }
  const parsed = opensloSloSchema.safeParse(value);
  if (!parsed.success) {
    for (const [path, message] of zodProblems(parsed.error, "is not a field of OpenSLO v1's SLO")) problem(path, message);
    return null;
  }
  const body = hubBody(parsed.data, problem);
  if (body === null) return null;
  const hub = createSloSchema.safeParse(body);
  if (!hub.success) {
    for (const [path, message] of zodProblems(hub.error, 'is not a field of this indicator')) problem(placeOfHubField(path), message);
    return null;
  }
  return hub.data;
}

/** The hub's fields of a valid OpenSLO SLO, or null with each reason the hub cannot hold it told to `problem`. */
function hubBody(slo: OpenSloSlo, problem: (path: Path, message: string) => void): Record<string, unknown> | null {
  const { spec, metadata } = slo;
  let held = true;
  const refuse = (path: Path, message: string) => {
    problem(path, message);
    held = false;
  };

  if (spec.budgetingMethod !== 'Occurrences') {
    refuse(['spec', 'budgetingMethod'], `is ${spec.budgetingMethod}: the hub counts good events of all events, which is Occurrences`);
  }
  if (spec.objectives.length !== 1) refuse(['spec', 'objectives'], 'must hold one objective: the hub keeps one target an SLO');
  const objective = spec.objectives[0]!;
  const target = objective.target !== undefined ? percentOfRatio(objective.target) : percentOfPercent(objective.targetPercent!);
  if (target === null) {
    refuse(
      ['spec', 'objectives', 0, objective.target !== undefined ? 'target' : 'targetPercent'],
      'has more decimals than the hub keeps: a target is a percentage of at most three decimals (0.99999 or 99.999)',
    );
  } else if (objective.target !== undefined && (target < 50 || target > 99.999)) {
    refuse(['spec', 'objectives', 0, 'target'], 'must be from 0.5 to 0.99999: the hub takes targets from 50 % to 99.999 %');
  }

  const window = spec.timeWindow?.[0];
  const duration = window === undefined ? undefined : (WINDOW_ALIASES[window.duration] ?? window.duration);
  if (window === undefined) {
    refuse(['spec'], `has no timeWindow: the hub needs a rolling window of ${SLO_WINDOWS.join(', ')}`);
  } else if (window.isRolling !== true) {
    refuse(['spec', 'timeWindow', 0, 'isRolling'], 'must be true: the hub judges objectives over rolling windows, not calendar ones');
  } else if (!(SLO_WINDOWS as readonly string[]).includes(duration!)) {
    refuse(['spec', 'timeWindow', 0, 'duration'], `is ${window.duration}: the hub's windows are ${SLO_WINDOWS.join(', ')}`);
  }

  const indicator = hubIndicator(spec, refuse);
  if (!held || indicator === null) return null;
  return {
    name: metadata.displayName ?? metadata.name,
    description: metadata.annotations?.[FULL_DESCRIPTION_ANNOTATION] ?? spec.description ?? null,
    target,
    window: duration,
    indicator,
  };
}

/** The hub's indicator carried by the good and total metric sources, or null with why not. */
function hubIndicator(spec: OpenSloSlo['spec'], refuse: (path: Path, message: string) => void): Record<string, unknown> | null {
  if (spec.indicatorRef !== undefined) {
    refuse(['spec', 'indicatorRef'], `names an SLI kept elsewhere: give the indicator inline; ${ONLY_HUB_INDICATORS}`);
    return null;
  }
  if (spec.indicator === undefined) {
    refuse(['spec', 'objectives'], 'gives an indicator per objective (a composite SLO): the hub holds one inline indicator an SLO');
    return null;
  }
  const ratio = spec.indicator.spec.ratioMetric;
  if (ratio === undefined) {
    refuse(['spec', 'indicator', 'spec', 'thresholdMetric'], `is not read: ${ONLY_HUB_INDICATORS}, in a ratioMetric`);
    return null;
  }
  const at: Path = ['spec', 'indicator', 'spec', 'ratioMetric'];
  if (ratio.good === undefined || ratio.total === undefined) {
    refuse([...at, ratio.raw ? 'raw' : 'bad'], 'is not read: the hub reads good and total, as `cbh slo export --openslo` writes them');
    return null;
  }
  const good = sourceIndicator(ratio.good.metricSource, 'good', [...at, 'good', 'metricSource'], refuse);
  const total = sourceIndicator(ratio.total.metricSource, 'total', [...at, 'total', 'metricSource'], refuse);
  if (good === null || total === null) return null;
  if (canonical(good) !== canonical(total)) {
    refuse([...at, 'total', 'metricSource', 'spec'], 'must name the same indicator as good (only events differs)');
    return null;
  }
  return good;
}

function sourceIndicator(source: OpenSloMetricSource, events: CountedEvents, at: Path, refuse: (path: Path, message: string) => void) {
  if (source.type !== CBH_SOURCE_TYPE) {
    const what = source.type === undefined ? `the DataSource ${source.metricSourceRef}` : source.type;
    refuse([...at, 'type'], `is ${what}: ${ONLY_HUB_INDICATORS}`);
    return null;
  }
  const { events: counted, ...indicator } = source.spec;
  if (counted !== events) {
    refuse([...at, 'spec', 'events'], `must be ${events}: the ${events} source counts the indicator's ${events} events`);
    return null;
  }
  return indicator;
}

/** JSON with its keys sorted, to compare two indicators whatever order their fields were written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** The place in the document that a field of the hub's body came from. */
function placeOfHubField(path: Path): Path {
  const [field, ...rest] = path;
  if (field === 'name') return ['metadata', 'displayName'];
  if (field === 'description') return ['spec', 'description'];
  // a target given as a ratio was held to the hub's range above: what is refused here was a percentage
  if (field === 'target') return ['spec', 'objectives', 0, 'targetPercent'];
  if (field === 'window') return ['spec', 'timeWindow', 0, 'duration'];
  return [...GOOD_SOURCE, 'spec', ...rest];
}

/** A zod error as (path, message) pairs, an unknown key as a problem of its own at its place. */
function zodProblems(error: z.ZodError, unknownKey: string): [Path, string][] {
  return error.issues.flatMap((issue): [Path, string][] => {
    const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key): [Path, string] => [[...path, key], unknownKey]);
    if (issue.code === 'invalid_type' && issue.input === undefined) return [[path, 'is required']];
    return [[path, issue.message]];
  });
}

/** The path as text and where it is in the file: the nearest node the document has along it. */
function placeOf(document: Document, lines: LineCounter, path: Path): Pick<OpenSloProblem, 'path' | 'line' | 'column'> {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? document.contents : document.getIn(path.slice(0, depth), true);
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    if (!range) continue;
    // a key's value that is a mapping starts on the next line; point at the key instead, where an editor shows it
    const keyNode = depth > 0 && isMap(node) ? keyOf(document, path.slice(0, depth)) : null;
    const { line, col } = lines.linePos(keyNode?.range?.[0] ?? range[0]);
    return { path: pathText(path), line, column: col };
  }
  return { path: pathText(path), line: null, column: null };
}

function keyOf(document: Document, path: Path): { range?: [number, number, number] } | null {
  const parent = path.length === 1 ? document.contents : document.getIn(path.slice(0, -1), true);
  if (!isMap(parent)) return null;
  const pair = parent.items.find((item) => (item.key as { value?: unknown } | null)?.value === path[path.length - 1]);
  return (pair?.key as { range?: [number, number, number] } | undefined) ?? null;
}
