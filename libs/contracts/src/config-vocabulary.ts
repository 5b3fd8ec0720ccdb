// No schema library here: the screens import these words, and a module with schemas would bring one along.
import type { Permission } from './roles';

/** The configuration document's format; an import of another version is refused. */
export const CONFIG_DOCUMENT_VERSION = 1;
/** The one route that reads a configuration document (in YAML as well as JSON). */
export const CONFIG_IMPORT_PATH = '/api/import';
/** The largest document POST /api/import reads (413 beyond). */
export const CONFIG_DOCUMENT_MAX_BYTES = 1_048_576;
/** Items one list of the document may hold: far above a real fleet, low enough that one import stays one transaction. */
export const CONFIG_DOCUMENT_MAX_ITEMS = 5000;

/** A service whose endpoint is its own chaos target (/api/chaos/<its id>) names it so, since ids differ between hubs. */
export const CHAOS_ENDPOINT = 'chaos';

/** The export's formats: GET /api/export?format= or by Accept. */
export const CONFIG_FORMATS = ['json', 'yaml'] as const;
export type ConfigFormat = (typeof CONFIG_FORMATS)[number];
/** The media types POST /api/import reads, besides application/json. */
export const YAML_MEDIA_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml'] as const;

/** The kinds of item a document holds, in the order an import reports them; each kind's list is named by its plural. */
export const IMPORT_KINDS = [
  'breaker',
  'service',
  'domain',
  'channel',
  'notificationRule',
  'maintenanceWindow',
  'scrapeTarget',
  'schedule',
  'escalationPolicy',
  'statusPage',
  'slo',
  'drill',
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** Each kind in words, as the import's table of changes (beside its actions, also in lower case) names it. */
export const IMPORT_KIND_LABELS: Record<ImportKind, string> = {
  breaker: 'breaker',
  service: 'service',
  domain: 'domain',
  channel: 'notification channel',
  notificationRule: 'notification rule',
  maintenanceWindow: 'maintenance window',
  scrapeTarget: 'scrape target',
  schedule: 'on-call schedule',
  escalationPolicy: 'escalation policy',
  statusPage: 'status page',
  slo: 'SLO',
  drill: 'saved drill',
};

/**
 * The document's notification lists: optional, and only for holders of circuit_breaker_admin (export leaves them out
 * for others, import refuses them with a 403). A document without one leaves that kind alone, even with prune.
 */
export const NOTIFICATION_LISTS = ['channels', 'notificationRules', 'maintenanceWindows'] as const;

/**
 * The lists of the document that only holders of circuit_breaker_admin export and import, as they manage their items
 * by hand: the notification lists, the Prometheus endpoints scraped for resilience4j breakers, on-call schedules and
 * escalation policies (people by e-mail, channels and schedules by name), the status pages (keyed by slug; their
 * components name breakers and domains by name), the SLOs (their indicators name breakers and domains by name;
 * those over domains also need domain_management, as in the API), and the saved drills (their steps name breakers by
 * name; every drill route needs circuit_breaker_admin, reading included, as a drill hurts real traffic).
 */
export const ADMIN_LISTS = [
  ...NOTIFICATION_LISTS,
  'scrapeTargets',
  'schedules',
  'escalationPolicies',
  'statusPages',
  'slos',
  'drills',
] as const;

/**
 * The lists every document holds, and what each needs as its own routes do: reading (an export writes it, an import
 * diffs against it) and changing its items (create, update, delete). An export for someone who may not read one
 * writes it empty and names it in `omitted`; an import leaves a list alone that its document names in `omitted`, or
 * that its caller may not read and the document leaves empty, even with prune.
 */
export const CORE_LIST_PERMISSIONS = {
  breakers: { read: 'circuit_breaker_view', change: 'circuit_breaker_admin' },
  services: { read: 'circuit_breaker_view', change: 'circuit_breaker_admin' },
  domains: { read: 'domain_management', change: 'domain_management' },
} as const satisfies Record<string, { read: Permission; change: Permission }>;
export type CoreList = keyof typeof CORE_LIST_PERMISSIONS;
export const CORE_LISTS = Object.keys(CORE_LIST_PERMISSIONS) as CoreList[];

/** Every list of the document, as `omitted` names them. */
export const DOCUMENT_LISTS = [...CORE_LISTS, ...ADMIN_LISTS] as const;
export type DocumentList = CoreList | (typeof ADMIN_LISTS)[number];

/**
 * The prefixes of the variables the hub's exports name for secrets: a channel's URL and secret, a scrape target's
 * bearer token. cbh fills in no other.
 */
export const SECRET_VARIABLE_PREFIXES = ['CBH_CHANNEL_', 'CBH_SCRAPE_'] as const;

/** The variable of a scrape target's bearer token: its name (a-z, 0-9, -) upper-cased with - as _ ("orders-eu" → CBH_SCRAPE_ORDERS_EU_TOKEN). */
export const scrapeTokenVariable = (name: string) => `CBH_SCRAPE_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_TOKEN`;

/** A reference to a variable of the environment the document is read in: what export writes for a channel's URL and secret. */
export const envReference = (variable: string) => `\${env:${variable}}`;

const byLowerCase = (a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);

/**
 * The stem of each channel's variables, CBH_CHANNEL_<NAME> (export writes `${env:<stem>_URL}` and `${env:<stem>_SECRET}`):
 * the name upper-cased, every character but A–Z and 0–9 as `_` ("Ops alerts" → CBH_CHANNEL_OPS_ALERTS). Names that
 * come out the same ("ops-alerts", "ops alerts") are told apart in the order of their names: the first keeps the
 * stem, the next get _2, _3… (a number no other name's stem takes).
 */
export function channelVariableStems(names: readonly string[]): Map<string, string> {
  const stemOf = (name: string) => `CBH_CHANNEL_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
  const sorted = [...names].sort(byLowerCase);
  const plain = new Set(sorted.map(stemOf));
  const taken = new Set<string>();
  const stems = new Map<string, string>();
  for (const name of sorted) {
    let stem = stemOf(name);
    if (taken.has(stem)) {
      let n = 2;
      while (plain.has(`${stem}_${n}`) || taken.has(`${stem}_${n}`)) n++;
      stem = `${stem}_${n}`;
    }
    taken.add(stem);
    stems.set(name, stem);
  }
  return stems;
}

export const IMPORT_ACTIONS = ['create', 'update', 'delete', 'unchanged'] as const;
export type ImportAction = (typeof IMPORT_ACTIONS)[number];

/** One line of an import's diff. */
export interface ImportChange {
  kind: ImportKind;
  /** The item's name (a domain's normal form). */
  name: string;
  action: ImportAction;
  /** update only: the document's fields whose value differs from the hub's. */
  fields?: string[];
}

/** The answer of POST /api/import, dry run or not: every item of the document, and with ?prune=true every item deleted. */
export interface ImportResult {
  changes: ImportChange[];
}
