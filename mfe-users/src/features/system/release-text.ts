import { failureText } from '@cbh/api-client';
import { REMOTE_NAMES, routesOf, type RemoteName, type RemoteVersionView } from '@cbh/contracts';
import { formatCount, relativeWords, type RelativeUnit } from '@cbh/ui';

/** The share of visitors a canary may get, as the API's canaryReleaseSchema checks it. */
export const CANARY_MIN_PERCENT = 1;
export const CANARY_MAX_PERCENT = 99;

/** What a version id means for a remote: a version, or the files deployed with the hub when there is none. */
export const versionText = (versionId: number | null) => (versionId === null ? 'the deployed folder' : `version ${versionId}`);

/** The page navigation that makes a change reach open pages: Module Federation only swaps a remote between routes. */
export const NEXT_NAVIGATION = 'Open pages switch at their next navigation to its screens.';

/** A whole percent within the canary's bounds, or null; the API checks the same and says what it refuses. */
export function canaryPercentOf(text: string): number | null {
  const percent = Number(text);
  return text.trim() !== '' && Number.isInteger(percent) && percent >= CANARY_MIN_PERCENT && percent <= CANARY_MAX_PERCENT ? percent : null;
}

/** A failure toast's text: what did not happen, then the server's reason, or else that the hub could not be reached. */
export function refusalText(what: string, error: unknown): string {
  return failureText(what, error, 'The hub could not be reached; try again');
}

/** The first of a remote's pages by title, for saying where a change can be seen; undefined for a name not in the route table. */
export function firstPageOf(remote: string): string | undefined {
  return (REMOTE_NAMES as readonly string[]).includes(remote) ? routesOf(remote as RemoteName)[0]?.title : undefined;
}

const KB = 1024;

/** A build's size in KB, rounded up (as uploaded, before compression). */
export const sizeText = (bytes: number) => `${formatCount(Math.ceil(bytes / KB))} KB`;

/** The remote entry's gzip size, which every first visit to the remote downloads. */
export const entryText = (bytes: number) => `entry ${(bytes / KB).toFixed(1)} KB gzip`;

/** How many loads the shell reported and the share of them that failed, e.g. '240 loads, 2.5 % failed'. */
export function loadsText({ count, failed }: RemoteVersionView['loads']): string {
  const share = Number(((failed * 100) / count).toFixed(1));
  return `${formatCount(count)} ${count === 1 ? 'load' : 'loads'}, ${share} % failed`;
}

/** The time to first render: 'p50 340 ms · p95 910 ms', a dash for a figure not known yet. */
export function timingText({ p50Ms, p95Ms }: RemoteVersionView['loads']): string {
  const ms = (value: number | null) => (value === null ? '—' : `${formatCount(Math.round(value))} ms`);
  return `p50 ${ms(p50Ms)} · p95 ${ms(p95Ms)}`;
}

/** Who runs a version now: the people who loaded it in the last half hour. */
export const activeText = ({ activeVisitors }: RemoteVersionView['loads']) =>
  `${formatCount(activeVisitors)} ${activeVisitors === 1 ? 'person' : 'people'} in the last half hour`;

/** The errors a version's code threw after it rendered, e.g. '3 errors after render'. */
export const errorsAfterRenderText = ({ errorsAfterRender }: RemoteVersionView['loads']) =>
  `${formatCount(errorsAfterRender)} ${errorsAfterRender === 1 ? 'error' : 'errors'} after render`;

const UNITS: [RelativeUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** How long ago a moment was, in its largest whole unit ('3 hours ago', 'yesterday'); `now` in ms since the epoch. */
export function agoText(iso: string, now: number): string {
  // the hub's clock a little ahead of this one must not read as a moment in the future
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  const [unit, size] = UNITS.find(([, length]) => seconds >= length) ?? ['second', 1];
  return seconds < 10 ? 'just now' : relativeWords(-Math.floor(seconds / size), unit);
}
