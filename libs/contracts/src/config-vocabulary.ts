// No schema library here: the screens import these words, and a module with schemas would bring one along.

/** The configuration document's format; an import of another version is refused. */
export const CONFIG_DOCUMENT_VERSION = 1;
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

/** The kinds of item a document holds, in the order an import reports and applies them. */
export const IMPORT_KINDS = ['breaker', 'service', 'domain'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

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
