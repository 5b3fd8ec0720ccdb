import type { ImportKind } from './config-vocabulary';

/*
 * Sample data: a few breakers of each type with some history, two services, a domain, a log channel and a rule,
 * which a super admin may load into a hub (on an empty one the dashboard and the wall offer it) and remove again.
 * It is made through the same paths an operator's changes take (a configuration import, manual controls, load tests),
 * so it is audited like them; removing it removes exactly what it added and nothing made since.
 */

/** GET shows it, POST loads it, DELETE removes it. */
export const SAMPLE_DATA_PATH = '/api/sample-data';

/** One item the sample data added, as the hub still has it. */
export interface SampleDataItem {
  kind: ImportKind;
  name: string;
}

/** GET /api/sample-data (and the answer of POST and DELETE). */
export interface SampleDataView {
  /** Whether sample data is loaded now. */
  loaded: boolean;
  loadedAt: string | null;
  /** What it added that the hub still has. */
  items: SampleDataItem[];
  /** Why it may not be loaded here (production), or null. */
  refused: string | null;
}

/** Why a production hub refuses it, as SEED_DEMO is refused there. */
export const SAMPLE_DATA_PRODUCTION_REFUSAL = 'Sample data is not for production (NODE_ENV=production)';
