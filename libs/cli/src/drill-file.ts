import { createDrillSchema, type CreateDrill } from '@cbh/contracts';
import { CliError } from './cli-error';
import { ConfigFile } from './config-file';

/*
 * The file of `cbh drill run`: one drill in the body's shape of POST /api/drills, or a file with a `drills:` list of
 * them (one picked by --name), checked here against the hub's own schema so that a mistake is placed in the file
 * before anything is sent, and a refusal of the hub placed the same way.
 */

export interface DrillFile {
  file: ConfigFile;
  drill: CreateDrill;
  /** Where the drill is in the file: '' for a file of one drill, `drills[2].` for one of a list. */
  prefix: string;
}

type Issue = NonNullable<ReturnType<typeof createDrillSchema.safeParse>['error']>['issues'][number];

/** A place of a zod issue as the CLI prints places: `steps[0].fault.rate`. */
export function placeOf(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index ? '.' : ''}${String(key)}`)).join('');
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Each problem of the drill at its line and column, worded as the hub words them for the same body. */
function problemLines(file: ConfigFile, prefix: string, value: unknown, issues: readonly Issue[]): string[] {
  return issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const place = `${prefix}${placeOf([...issue.path, issue.keys[0]!])}`;
      const at = file.locate(place);
      return `${at}: ${prefix}${placeOf(issue.path) || '(the drill)'}: unknown field ${issue.keys.join(', ')}`;
    }
    const place = `${prefix}${placeOf(issue.path)}`;
    const missing = issue.code === 'invalid_type' && valueAt(value, issue.path) === undefined;
    return `${file.locate(place)}: ${place || '(the drill)'}: ${missing ? 'is required' : issue.message}`;
  });
}

/** A drill of a file, picked but not yet checked: its breakers may still be named (see breakerNames). */
export interface PickedDrill {
  file: ConfigFile;
  value: unknown;
  prefix: string;
}

/**
 * The drill of the file. `name` picks one of a `drills:` list (needed when the list holds more than one); for a file
 * of one drill it must be that drill's.
 */
export function pickDrill(fileName: string, name?: string): PickedDrill {
  const file = ConfigFile.read(fileName);
  const document = file.value();
  const list = isRecord(document) ? document.drills : undefined;
  if (list === undefined) {
    const own = isRecord(document) ? document.name : undefined;
    if (name !== undefined && own !== name) {
      throw new CliError(`${file.name} holds one drill, "${String(own)}", not "${name}" (--name picks a drill of a drills: list)`);
    }
    return { file, value: document, prefix: '' };
  }
  if (!Array.isArray(list)) throw new CliError(`${file.locate('drills')}: drills: must be a list of drills`);
  if (list.length === 0) throw new CliError(`${file.locate('drills')}: drills: holds no drill to run`);
  const names = list.map((item) => (isRecord(item) ? item.name : undefined));
  const index = name === undefined ? (list.length === 1 ? 0 : -1) : names.findIndex((each) => each === name);
  if (index < 0) {
    const listed = names.map((each) => (typeof each === 'string' ? `"${each}"` : '(unnamed)')).join(', ');
    throw new CliError(
      name === undefined
        ? `${file.name} lists ${list.length} drills: pick one with --name (${listed})`
        : `${file.name} has no drill named "${name}" in its drills: list (${listed})`,
    );
  }
  return { file, value: list[index], prefix: `drills[${index}].` };
}

const isRecord = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** The places of the drill's breakers named by a string, each with its name, in order. */
function namedPlaces(value: unknown): { list: 'steps' | 'expectations'; index: number; name: string }[] {
  if (!isRecord(value)) return [];
  return (['steps', 'expectations'] as const).flatMap((list) => {
    const items = value[list];
    if (!Array.isArray(items)) return [];
    return items.flatMap((item: unknown, index) =>
      isRecord(item) && typeof item.breaker === 'string' ? [{ list, index, name: item.breaker }] : [],
    );
  });
}

/**
 * The hub's own breakers the drill names by name, as the configuration document's `drills:` names them (ids differ
 * between hubs): looked up on the hub before the drill is checked, since POST /api/drills takes them by id.
 */
export const breakerNames = (drill: PickedDrill): string[] => [...new Set(namedPlaces(drill.value).map((place) => place.name))];

/**
 * The drill with the breakers named by name given their ids (`ids`: the hub's own breakers, by lower-cased name),
 * refused with every problem at its place when it is not a body the hub takes.
 */
export function checkDrill({ file, value, prefix }: PickedDrill, ids: ReadonlyMap<string, number> = new Map()): DrillFile {
  const unknown: string[] = [];
  const unknownPlaces = new Set<string>();
  let body = value;
  const places = namedPlaces(value);
  if (places.length) {
    const copy = structuredClone(value) as Record<'steps' | 'expectations', Record<string, unknown>[]>;
    for (const { list, index, name } of places) {
      const id = ids.get(name.trim().toLowerCase());
      if (id === undefined) {
        const place = `${prefix}${list}[${index}].breaker`;
        unknown.push(`${file.locate(place)}: ${place}: the hub has no breaker of its own named ${name}`);
        unknownPlaces.add(`${list}[${index}].breaker`);
      } else copy[list][index]!.breaker = id;
    }
    body = copy;
  }
  const parsed = createDrillSchema.safeParse(body);
  if (!parsed.success || unknown.length) {
    // a name the hub lacks is said once, not again as a breaker that is not an id
    const issues = parsed.success ? [] : parsed.error.issues.filter((issue) => !unknownPlaces.has(placeOf(issue.path)));
    const lines = [...unknown, ...problemLines(file, prefix, body, issues)];
    throw new CliError(`${file.name} is not a drill the hub can run; nothing was sent:\n${lines.join('\n')}`);
  }
  return { file, drill: parsed.data, prefix };
}

/** The drill of a file whose breakers are named by id or { service, name }: read, picked and checked. */
export const readDrillFile = (fileName: string, name?: string): DrillFile => checkDrill(pickDrill(fileName, name));

/**
 * The hub's message refusing the drill (400 or 422: "steps[0].breaker: no breaker nope of the service checkout"),
 * each problem at its place in the file; the hub's validation writes places with dots (`steps.0.durationSeconds`).
 */
export function explainRefusal({ file, prefix }: DrillFile, hubMessage: string): string {
  return hubMessage
    .split('; ')
    .map((problem) => {
      const match = /^([A-Za-z_]\w*(?:\[\d+\]|\.\w+)*): (.*)$/s.exec(problem);
      if (!match) return `${file.name}: ${problem}`;
      const place = `${prefix}${match[1]!.replace(/\.(\d+)(?=\.|\[|$)/g, '[$1]')}`;
      return `${file.locate(place)}: ${place}: ${match[2]}`;
    })
    .join('\n');
}
