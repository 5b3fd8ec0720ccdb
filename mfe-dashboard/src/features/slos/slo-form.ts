import {
  REMOTE_NAMES,
  SLO_LIMITS as L,
  type CreateSlo,
  type RemoteName,
  type SloIndicator,
  type SloIndicatorKind,
  type SloView,
  type SloWindow,
  type UpdateSlo,
} from '@cbh/contracts';
import { compact } from '../shared/form-checks';
import type { RecordForm } from '../shared/use-record-form';

/*
 * The SLO form's checks, run as people type, in the words of createSloSchema (the screens carry no zod); the API
 * judges again, and its refusal shows under the field it names.
 */

export interface SloDraft {
  name: string;
  description: string;
  /** A percentage as typed ('99.9') */
  target: string;
  window: SloWindow;
  kind: SloIndicatorKind;
  /** What a breaker indicator counts: the breakers picked, or every breaker of one service. */
  members: 'breakers' | 'service';
  breakers: number[];
  service: string;
  thresholdMs: string;
  domains: number[];
  remote: RemoteName | '';
}
export const SLO_FIELDS = [
  'name',
  'description',
  'target',
  'window',
  'kind',
  'breakers',
  'service',
  'thresholdMs',
  'domains',
  'remote',
] as const;
export type SloField = (typeof SLO_FIELDS)[number];

export const isBreakerKind = (kind: SloIndicatorKind) => kind === 'breaker-calls' || kind === 'breaker-latency';

const SERVICE = /^[a-z0-9-]{1,64}$/;
export const SERVICE_PROBLEM = 'must be a service name: lower-case letters, digits and dashes, at most 64';

function targetProblem(text: string): string | undefined {
  const target = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(target)) return 'must be a percentage such as 99.9';
  if (target < L.targetMin || target > L.targetMax) return `must be from ${L.targetMin} to ${L.targetMax}`;
  // as the schema: three decimals at most, 99.999 being the finest target a minute's counts can judge
  if (Math.abs(target * 1000 - Math.round(target * 1000)) >= 1e-6) return 'must have at most three decimals';
  return undefined;
}

function thresholdProblem(text: string): string | undefined {
  const ms = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(ms)) return 'must be a number of milliseconds';
  if (!Number.isInteger(ms)) return 'must be whole milliseconds';
  if (ms < 1) return 'must be at least 1 ms';
  if (ms > L.thresholdMsMax) return `must be at most ${L.thresholdMsMax} ms`;
  return undefined;
}

function membersProblem(ids: readonly number[], what: string): string | undefined {
  if (ids.length === 0) return `must name at least one ${what}`;
  if (ids.length > L.members) return `must name at most ${L.members}`;
  return undefined;
}

/** The indicator a draft describes: only the fields its kind takes. */
export function indicatorOf(draft: SloDraft): SloIndicator {
  const members = draft.members === 'service' ? { service: draft.service.trim() } : { breakers: draft.breakers };
  switch (draft.kind) {
    case 'breaker-calls':
      return { kind: draft.kind, ...members };
    case 'breaker-latency':
      return { kind: draft.kind, ...members, thresholdMs: Number(draft.thresholdMs.trim()) };
    case 'domain-uptime':
      return { kind: draft.kind, domains: draft.domains };
    case 'remote-loads':
      return { kind: draft.kind, remote: draft.remote as RemoteName };
  }
}

/** Whether two indicators count the same, whatever order the API writes their fields in. */
const canonical = (indicator: SloIndicator) => JSON.stringify(indicator, Object.keys(indicator).sort());
const sameIndicator = (a: SloIndicator, b: SloIndicator) => canonical(a) === canonical(b);

/** The SLO dialog's form: its empty draft, its checks, and what it sends (see useRecordForm). */
export const SLO_FORM: RecordForm<SloDraft, SloField, SloView, CreateSlo, UpdateSlo> = {
  fields: SLO_FIELDS,
  empty: () => ({
    name: '',
    description: '',
    target: '99.9',
    window: '30d',
    kind: 'breaker-calls',
    members: 'breakers',
    breakers: [],
    service: '',
    thresholdMs: '300',
    domains: [],
    remote: '',
  }),
  draftOf(slo) {
    const indicator = slo.indicator;
    const draft: SloDraft = {
      ...SLO_FORM.empty(),
      name: slo.name,
      description: slo.description ?? '',
      target: String(slo.target),
      window: slo.window,
      kind: indicator.kind,
    };
    if (indicator.kind === 'domain-uptime') return { ...draft, domains: indicator.domains };
    if (indicator.kind === 'remote-loads') return { ...draft, remote: indicator.remote };
    return {
      ...draft,
      members: indicator.service !== undefined ? 'service' : 'breakers',
      breakers: indicator.breakers ?? [],
      service: indicator.service ?? '',
      thresholdMs: indicator.kind === 'breaker-latency' ? String(indicator.thresholdMs) : draft.thresholdMs,
    };
  },

  problems(draft) {
    const breakers = isBreakerKind(draft.kind);
    const name = draft.name.trim();
    return compact<SloField>({
      name: !name ? 'must not be empty' : name.length > L.nameLength ? `must be at most ${L.nameLength} characters` : undefined,
      description: draft.description.trim().length > L.descriptionLength ? `must be at most ${L.descriptionLength} characters` : undefined,
      target: targetProblem(draft.target),
      window: undefined,
      kind: undefined,
      breakers: breakers && draft.members === 'breakers' ? membersProblem(draft.breakers, 'breaker') : undefined,
      service: breakers && draft.members === 'service' && !SERVICE.test(draft.service.trim()) ? SERVICE_PROBLEM : undefined,
      thresholdMs: draft.kind === 'breaker-latency' ? thresholdProblem(draft.thresholdMs) : undefined,
      domains: draft.kind === 'domain-uptime' ? membersProblem(draft.domains, 'domain') : undefined,
      remote: draft.kind === 'remote-loads' && !REMOTE_NAMES.includes(draft.remote as RemoteName) ? 'pick a remote' : undefined,
    });
  },

  toCreate(draft) {
    const description = draft.description.trim();
    return {
      name: draft.name.trim(),
      ...(description ? { description } : {}),
      target: Number(draft.target.trim()),
      window: draft.window,
      indicator: indicatorOf(draft),
    };
  },

  /** Each field that differs from the SLO's; the indicator whole, as the API replaces it whole. */
  toUpdate(draft, slo) {
    const patch: UpdateSlo = {};
    const description = draft.description.trim() || null;
    if (draft.name.trim() !== slo.name) patch.name = draft.name.trim();
    if (description !== slo.description) patch.description = description;
    if (Number(draft.target.trim()) !== slo.target) patch.target = Number(draft.target.trim());
    if (draft.window !== slo.window) patch.window = draft.window;
    const indicator = indicatorOf(draft);
    if (!sameIndicator(indicator, slo.indicator)) patch.indicator = indicator;
    return patch;
  },
};

/**
 * The API names an indicator's fields by their path ('indicator.thresholdMs: must be whole milliseconds',
 * 'indicator.breakers: no breaker with id 7'): the form shows them flat, so the refusal is told by the field's name.
 */
export function flatRefusal(error: unknown): unknown {
  const data = (error as { data?: { message?: unknown } } | undefined)?.data;
  if (typeof data?.message !== 'string') return error;
  return { ...(error as object), data: { ...data, message: data.message.replace(/(^|; )indicator\./g, '$1') } };
}
