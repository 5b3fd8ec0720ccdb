import { COMPONENT_STATES, type ComponentState } from '@cbh/contracts';

/*
 * What the public status page, its feed and its badges share: escaping, the readable forms of times and uptimes, the
 * colours of the states (each checked for contrast in the spec) and the page's one small style sheet. Plain string
 * building: these run on every rendering.
 */

/** Characters XML 1.0 forbids (C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF; lone surrogates). */
const FORBIDDEN = new RegExp(
  '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]',
  'g',
);
const SPECIAL = /[&<>"']/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML and XML, in element content and in quoted attributes alike. */
export function escapeText(value: string): string {
  return String(value)
    .replace(FORBIDDEN, '')
    .replace(SPECIAL, (char) => ENTITY[char]!);
}

/** An instant as ISO 8601 (UTC) and as people read it ("2026-11-28 14:05 UTC"); null when it is no instant. */
export function readableTime(value: string): { iso: string; text: string } | null {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return null;
  // whole seconds without the milliseconds (".000"): the page holds many of these
  const iso = new Date(time).toISOString().replace('.000Z', 'Z');
  return { iso, text: `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` };
}

/** `<time datetime="…">…</time>`, or the escaped text itself when it is no instant. */
export function timeElement(value: string): string {
  const time = readableTime(value);
  return time ? `<time datetime=${time.iso}>${time.text}</time>` : escapeText(value);
}

/**
 * A share (0…1) as a percentage with at most two decimals, rounded down so that a day with any downtime never reads
 * 100 (0.99999 is "99.99"); `separator` goes between the number and the sign ("99.95%" on badges, "99.95 %" on the page).
 */
export function formatUptime(share: number, separator = ''): string {
  const hundredths = Math.floor(Math.min(Math.max(share, 0), 1) * 10_000 + 1e-7);
  const text = (hundredths / 100).toFixed(2).replace(/\.?0+$/, '');
  return `${text}${separator}%`;
}

/** The state's index, 0 (operational) … 4 (major outage): the page's classes are named after it. */
export const stateIndex = (state: ComponentState) => Math.max(COMPONENT_STATES.indexOf(state), 0);

export interface StateColours {
  /** the label's text … */
  fg: string;
  /** … on this background */
  bg: string;
  /** a day's bar on the page's white, and the badge's colour */
  bar: string;
}

/** The colours of each state; text on its background, and bars on white, are checked for contrast in the spec. */
export const STATE_COLOURS: Record<ComponentState, StateColours> = {
  operational: { fg: '#116329', bg: '#dafbe1', bar: '#1a7f37' },
  maintenance: { fg: '#0550ae', bg: '#ddf4ff', bar: '#0969da' },
  degraded: { fg: '#6b4400', bg: '#fff8c5', bar: '#9a6700' },
  partial_outage: { fg: '#8a3300', bg: '#fff1e5', bar: '#bc4c00' },
  major_outage: { fg: '#a40e26', bg: '#ffebe9', bar: '#cf222e' },
};

/** A day without data (before the component existed). */
export const NO_DATA_BAR = '#8c959f';
export const PAGE_TEXT = '#1f2328';
export const MUTED_TEXT = '#59636e';
export const DEFAULT_ACCENT = '#0b6bcb';

const channels = (hex: string) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
const toHex = (values: number[]) => `#${values.map((value) => Math.round(value).toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((value) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours (1 … 21). */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/**
 * The page's colours from its accent (validated `#rrggbb` upstream, else the default): the header's background and
 * the text on it (white or black, whichever reads better: always ≥ 4.5), and a link colour, the accent darkened
 * until it reads on white at ≥ 4.5.
 */
export function accentColours(accent: string | null | undefined): { header: string; onHeader: string; link: string } {
  const header = accent && /^#[0-9a-fA-F]{6}$/.test(accent) ? accent.toLowerCase() : DEFAULT_ACCENT;
  // one of white and black always reads at ≥ 4.58 on any colour
  const onHeader = contrast(header, '#ffffff') >= contrast(header, '#000000') ? '#ffffff' : '#000000';
  let link = header;
  for (let factor = 0.9; contrast(link, '#ffffff') < 4.5 && factor > 0; factor -= 0.1) {
    link = toHex(channels(header).map((value) => value * factor));
  }
  return { header, onHeader, link };
}

const stateRules = COMPONENT_STATES.map((state, index) => {
  const colours = STATE_COLOURS[state];
  return `.k${index}{color:${colours.fg};background:${colours.bg}}.b${index}{--b:${colours.bar}}`;
}).join('');

/*
 * The bars: a component's 90 days are an <ol> of runs (consecutive days alike, each with no incident, share one
 * element; a day with an incident or downtime is its own), each run's width its number of days (`.wN`, generated for
 * the lengths the page uses, no style attributes; the base rule `.bars>*` is no more specific than `.wN`, so `.wN` wins) and drawn as N thin bars by a repeating gradient. Every run's text
 * is in the element itself, visually hidden: screen readers read it in the list, and hovering (mouse) or focusing it
 * (keyboard; a tap, which focuses an element with tabindex on phones) shows it as a panel under the bars through the
 * `:hover` / `:focus` rules below, so tap and hover work with JavaScript off. The bars shrink with the width: all 90
 * days are drawn from 320 px up (about 3 px a day), and the runs' panels and the incident lists say the rest.
 */
const BASE_CSS =
  '*{box-sizing:border-box}' +
  `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:${PAGE_TEXT};background:#fff;overflow-wrap:anywhere}` +
  'a{color:var(--l)}.w{max-width:50rem;margin:0 auto;padding:0 1rem}' +
  '.top{background:var(--a);color:var(--o);padding:1.25rem 0}.top a{color:inherit}.top p{margin:0}' +
  'h1{font-size:1.6rem;line-height:1.25;margin:0 0 .25rem}h2{font-size:1.3rem;margin:2rem 0 .75rem}' +
  'h3,h4{font-size:1rem;margin:0}h5,h6{font-size:.9rem;margin:.5rem 0 0}' +
  `.m{color:${MUTED_TEXT};font-size:.875rem}` +
  '.ban{padding:1rem;border-radius:6px;font-size:1.2rem;font-weight:700;margin:1.5rem 0 .25rem}' +
  '.note{border:2px solid #9a6700;background:#fff8c5;color:#3b2300;padding:.75rem;border-radius:6px}' +
  '.st{display:inline-block;padding:0 .5rem;border-radius:1rem;font-size:.875rem;font-weight:600}' +
  '.cs,.tl,.bars{list-style:none;margin:0;padding:0}.g>h3{margin-top:1rem}' +
  '.c{padding:.75rem 0;border-top:1px solid #d1d9e0}' +
  '.ch{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:baseline;gap:.25rem .75rem}' +
  '.bars{display:flex;height:2rem;margin-top:.5rem;position:relative}' +
  '.bars>*{flex:1 1 0;min-width:0;background:linear-gradient(90deg,var(--b) 70%,#0000 0) 0 0/100% 100% repeat-x}' +
  `.bars>:is(:hover,:focus){outline:2px solid ${PAGE_TEXT};outline-offset:1px}` +
  '.bars span{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}' +
  '.bars>:is(:hover,:focus)>span{width:auto;height:auto;clip-path:none;white-space:normal;left:0;right:0;' +
  'top:calc(100% + .4rem);z-index:1;background:#fff;border:1px solid #818b98;border-radius:6px;padding:.5rem;box-shadow:0 2px 8px #0003}' +
  `.bn{--b:${NO_DATA_BAR}}.ax{display:flex;flex-wrap:wrap;justify-content:space-between;gap:0 .5rem;margin-top:.25rem}` +
  // decorative ends of a 90-day line: empty alternative text (`/ ""`) where supported, so screen readers skip them
  '.ax:has(>:only-child)::before{content:"90 days ago";content:"90 days ago"/""}.ax:has(>:only-child)::after{content:"Today";content:"Today"/""}' +
  '.inc{border:1px solid #d1d9e0;border-radius:6px;padding:.75rem 1rem;margin:0 0 1rem}' +
  '.tl{margin-top:.5rem}.tl>li{border-left:3px solid #d1d9e0;padding:0 0 .5rem .75rem}.tl p{margin:.25rem 0}' +
  'pre{overflow-x:auto;background:#f6f8fa;padding:.5rem}blockquote{margin:0;padding-left:.75rem;border-left:3px solid #d1d9e0}' +
  '.pg{display:flex;justify-content:space-between;gap:1rem}' +
  'form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end}label{flex:1 0 100%}' +
  'input{font:inherit;padding:.5rem;border:1px solid #818b98;border-radius:6px;min-width:0;flex:1 1 12rem}' +
  'button{font:inherit;padding:.5rem 1rem;border:0;border-radius:6px;background:var(--l);color:#fff}' +
  'footer{margin:2rem 0;padding-top:1rem;border-top:1px solid #d1d9e0}' +
  stateRules;

/** The page's style sheet: the base rules, the accent, and the widths of the runs the page draws. */
export function pageCss(accent: string | null | undefined, runLengths: Iterable<number>): string {
  const colours = accentColours(accent);
  let widths = '';
  for (const length of [...new Set(runLengths)].sort((a, b) => a - b)) {
    if (length > 1) widths += `.w${length}{flex:${length};background-size:${+(100 / length).toFixed(4)}%}`;
  }
  return `:root{--a:${colours.header};--o:${colours.onHeader};--l:${colours.link}}${BASE_CSS}${widths}`;
}
