/*
 * Remote releases: a remote's build uploaded as an immutable version, checked against the shell's contract
 * (remote-contract.ts), and made live, rolled back, by system_admin.
 */

export const RELEASE_LIMITS = {
  /** Files of one build at most (chunks with their .br and .gz copies). */
  files: 3000,
  /** Bytes of one build at most, before base64. */
  bytes: 40 * 1024 * 1024,
  pathLength: 200,
  /** Versions listed per remote, newest first. */
  listed: 20,
  /** Remote loads one report of a page carries at most. */
  loadsPerReport: 20,
  /** Load reports one account may send a minute, over every replica (a page sends at most one every 3 s). */
  loadReportsPerMinute: 60,
  /** Characters of a failed load's reason kept. */
  reasonLength: 300,
  /** SLOs one canary may be judged by. */
  canarySlos: 5,
} as const;

/**
 * A canary judged by SLOs (POST …/canary { slos }): it is rolled back when, over the last CANARY_SLO_WINDOW_MINUTES,
 * a named SLO burns its error budget more than CANARY_SLO_BURN_FACTOR times as fast among the canary's visitors as
 * among the live version's — given CANARY_SLO_MIN_LOADS canary loads at least (a setting of that name).
 */
export const CANARY_SLO_WINDOW_MINUTES = 10;
export const CANARY_SLO_BURN_FACTOR = 2;

/**
 * The file types a remote's build consists of, and so the only ones an upload may carry (each may come with its
 * `.br` and `.gz` copies). Nothing here is a document a browser runs script in when it is opened directly: no HTML,
 * and no SVG (a remote's build inlines its images, and an SVG opened on the hub's origin would run its script).
 */
export const RELEASE_FILE_TYPES = ['js', 'mjs', 'css', 'json', 'map', 'woff', 'woff2', 'png', 'jpg', 'webp', 'avif', 'ico', 'txt'] as const;

/** The precompressed copies a build may carry of its files, served in their place to a browser that accepts them. */
export const RELEASE_COPY_ENCODINGS = { '.br': 'br', '.gz': 'gzip' } as const;

/** Why a build may not carry a file of this path (its type), or null when it may. */
export function releaseFileRefusal(filePath: string): string | null {
  const plain = filePath.replace(/\.(br|gz)$/, '');
  const type = /\.([A-Za-z0-9]+)$/.exec(plain)?.[1];
  if (type && (RELEASE_FILE_TYPES as readonly string[]).includes(type)) return null;
  return `${filePath}: a release carries only files of the types ${RELEASE_FILE_TYPES.join(', ')} (and their .br and .gz copies)`;
}

/**
 * A remote's name as the API knows it: the federation container's (`mfe_dashboard`), also accepted as its folder's
 * (`mfe-dashboard`), the name `cbh` and the repository use.
 */
export const releaseRemoteName = (name: string) => name.replace(/-/g, '_');

/** The visitor's random id, which puts each visitor on one side of a canary for good (a year's cookie). */
export const RELEASE_VISITOR_COOKIE = 'cbh.visitor';
/** The versions a system administrator pinned for their own browser, sealed by the hub. */
export const RELEASE_PINS_COOKIE = 'cbh.pins';

/** The body of an upload at most: the files base64-encoded (4/3) and their JSON around them. */
export const RELEASE_UPLOAD_MAX_BYTES = Math.ceil((RELEASE_LIMITS.bytes * 4) / 3) + 1024 * 1024;
