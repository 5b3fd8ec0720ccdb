import { COMPONENT_STATE_LABELS, type ComponentState, type IncidentImpact } from '@cbh/contracts';
import { theme } from '@cbh/ui';

/** A component's state as a badge shows it: its colour, always beside its words (never the colour alone). */
export const STATE_COLORS: Record<ComponentState, string> = {
  operational: theme.colors.closed,
  maintenance: theme.colors.primary,
  degraded: theme.colors.yellow,
  partial_outage: theme.colors.orange,
  major_outage: theme.colors.open,
};

export const stateLabel = (state: ComponentState) => COMPONENT_STATE_LABELS[state];

export const IMPACT_LABELS: Record<IncidentImpact, string> = {
  none: 'None (a notice)',
  minor: 'Minor',
  major: 'Major',
  critical: 'Critical',
};

/** Only a plain positive whole number names a page: '07', '1e3' or '0x1f' are not read as another page's id. */
export function idFrom(param: string | null | undefined): number | null {
  if (!param || !/^[1-9]\d*$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) ? id : null;
}

/** The ids of a comma-separated list (`?components=1,2`), each once, anything else left out. */
export function idsFrom(list: string | null | undefined): number[] {
  const ids = (list ?? '').split(',').map((each) => idFrom(each.trim()));
  return [...new Set(ids.filter((id): id is number => id !== null))];
}

/** The slug a title suggests: lower-case words joined by single hyphens (`EU Checkout` → `eu-checkout`). */
export function slugOf(title: string, max = 60): string {
  return title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
}
