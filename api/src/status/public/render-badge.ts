import { makeBadge } from 'badge-maker';
import { COMPONENT_STATE_LABELS, COMPONENT_STATES, type ComponentState } from '@cbh/contracts';
import { formatUptime, NO_DATA_BAR, STATE_COLOURS } from './page-styles';

/*
 * A status page's badges, SVG in the shields.io style (badge-maker, which escapes the label and message and names
 * the badge for screen readers): a component's or the page's state, and an uptime. Colours are the page's bar colours.
 */

/** A label a person typed: one line, not too long for a badge (badge-maker escapes it). */
const cleanLabel = (label: string) => String(label).replace(/\s+/g, ' ').trim().slice(0, 80);

/** A state's badge: "Payments | Partial outage" (an unknown state is refused). */
export function renderStateBadge(label: string, state: ComponentState): string {
  if (!COMPONENT_STATES.includes(state)) throw new RangeError(`unknown component state: ${String(state)}`);
  return makeBadge({ label: cleanLabel(label), message: COMPONENT_STATE_LABELS[state], color: STATE_COLOURS[state].bar });
}

/** The colour of an uptime (a share, 0…1): green from 99.9 %, then lighter green, yellow, orange, red under 90 %. */
function uptimeColour(share: number): string {
  if (share >= 0.999) return STATE_COLOURS.operational.bar;
  if (share >= 0.99) return '#437d26';
  if (share >= 0.95) return STATE_COLOURS.degraded.bar;
  if (share >= 0.9) return STATE_COLOURS.partial_outage.bar;
  return STATE_COLOURS.major_outage.bar;
}

/** An uptime's badge: "uptime | 99.95%" (a share, 0…1, rounded down), or "no data" for null. */
export function renderUptimeBadge(label: string, uptime: number | null): string {
  const known = uptime !== null && Number.isFinite(uptime);
  return makeBadge({
    label: cleanLabel(label),
    message: known ? formatUptime(uptime) : 'no data',
    color: known ? uptimeColour(uptime) : NO_DATA_BAR,
  });
}
