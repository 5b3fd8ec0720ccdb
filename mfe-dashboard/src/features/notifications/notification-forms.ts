import {
  isDomainEvent,
  CHANNEL_ADDRESS,
  NOTIFICATION_LIMITS,
  RULE_DEFAULTS,
  type AlertSeverity,
  type BreakerTypeName,
  type ChannelType,
  type ChannelView,
  type CreateChannel,
  type CreateRule,
  type CreateWindow,
  type RuleEventType,
  type UpdateChannel,
  windowProblems as windowTimingProblems,
} from '@cbh/contracts';
import { compact, type Problems, urlProblem } from '../shared/form-checks';
import type { RecordForm } from '../shared/use-record-form';

/*
 * The notification forms' checks, run as people type. The screens carry no schema library (README: "No browser code
 * uses zod"), so these repeat what createChannelSchema, createRuleSchema and createWindowSchema check, with their
 * messages; notification-forms.spec.ts holds them to those schemas. The API judges again and has the last word.
 */

/** Names or addresses typed into one field, separated by commas or new lines. */
export function listOf(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter(Boolean);
}

function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'is required';
  if (trimmed.length > NOTIFICATION_LIMITS.nameLength) return `must be at most ${NOTIFICATION_LIMITS.nameLength} characters`;
  return undefined;
}

/** zod's e-mail pattern (z.email()), so an address the form takes is one the API takes. */
const EMAIL = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const EMAIL_MAX = 254;

function recipientsProblem(addresses: readonly string[]): string | undefined {
  if (addresses.length === 0) return 'name at least one address';
  const bad = addresses.find((address) => !EMAIL.test(address));
  if (bad !== undefined) return `“${bad}” must be an e-mail address`;
  const long = addresses.find((address) => address.length > EMAIL_MAX);
  if (long !== undefined) return `“${long.slice(0, 40)}…” must be at most ${EMAIL_MAX} characters`;
  if (addresses.length > NOTIFICATION_LIMITS.recipients) return `must hold at most ${NOTIFICATION_LIMITS.recipients} addresses`;
  return undefined;
}

/** How a rule or a window names breakers: a plain name is the hub's own breaker (see namesBreaker in the API). */
export const BREAKER_NAMES_HINT =
  "Pick from the list, or type a name; another service's breaker is agent:<service>/<name> or scrape:<service>/<name>.";

/** What a name the hub does not hold yet is warned with: the rule or window keeps it, and it matches once one exists. */
export const unknownBreakerText = (name: string) => `No breaker named ${name} yet: it will match once one exists.`;
export const unknownDomainText = (name: string) => `No domain named ${name} yet: it will match once one is added.`;
/** Said of the domains field to someone who may not list the domains (no domain_management). */
export const DOMAINS_UNLISTED_HINT = 'Domains are listed to holders of domain_management only: type the names.';

/** Breaker or domain names as filters: each a name of at most 200 characters, at most 100 of them. */

function namesProblem(names: readonly string[]): string | undefined {
  if (names.some((name) => name.length > 200)) return 'must be a name';
  if (names.length > NOTIFICATION_LIMITS.filterItems) return `must hold at most ${NOTIFICATION_LIMITS.filterItems} names`;
  return undefined;
}

/** A whole number typed into a field, judged with the schema's words for minutes or for a count. */
function wholeProblem(text: string, min: number, max: number, unit: 'minutes' | 'count'): string | undefined {
  const minutes = unit === 'minutes';
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) return minutes ? 'must be a number of minutes' : 'must be a number';
  if (!Number.isInteger(value)) return minutes ? 'must be whole minutes' : 'must be a whole number';
  if (value < min) return minutes ? `must be at least ${min} minute${min === 1 ? '' : 's'}` : `must be at least ${min}`;
  if (value > max) return minutes ? `must be at most ${max} minutes` : `must be at most ${max}`;
  return undefined;
}

// ——— channels ———

export interface ChannelDraft {
  name: string;
  type: ChannelType;
  url: string;
  /** E-mail addresses, separated by commas or new lines. */
  recipients: string;
  secret: string;
  /** Editing a webhook that has a secret: send `secret: null`. */
  removeSecret: boolean;
}
export type ChannelField = 'name' | 'type' | 'url' | 'recipients' | 'secret';

/** The channel dialog's form: its empty draft, its checks, and what it sends (see useRecordForm). */
export const CHANNEL_FORM: RecordForm<ChannelDraft, ChannelField, ChannelView, CreateChannel, UpdateChannel> & {
  /** A new channel starts as a webhook; the spec starts others too. */
  empty: (type?: ChannelType) => ChannelDraft;
} = {
  fields: ['name', 'type', 'url', 'recipients', 'secret'],
  empty: (type: ChannelType = 'webhook') => ({
    name: '',
    type,
    url: '',
    recipients: '',
    secret: '',
    removeSecret: false,
  }),

  /** An existing channel in the edit form: its URL and secret are never sent back, so their fields start empty. */
  draftOf: (channel) => ({
    ...CHANNEL_FORM.empty(channel.type),
    name: channel.name,
    recipients: channel.recipients.join('\n'),
  }),

  /**
   * E-mail channels need recipients, the others a URL (on creation; an empty URL field keeps the saved one when
   * editing); only webhooks take a secret. Fields the type does not use are not shown, so not judged.
   */
  problems(draft, creating) {
    const email = CHANNEL_ADDRESS[draft.type] === 'recipients';
    return compact<ChannelField>({
      name: nameProblem(draft.name),
      type: undefined,
      url:
        CHANNEL_ADDRESS[draft.type] !== 'url' ? undefined : draft.url.trim() ? urlProblem(draft.url) : creating ? 'is required' : undefined,
      // the form asks for addresses on an edit too: an e-mail channel without any would reach nobody
      recipients: email ? recipientsProblem(listOf(draft.recipients)) : undefined,
      secret:
        draft.type !== 'webhook' || !draft.secret
          ? undefined
          : draft.secret.length < 8
            ? 'must be at least 8 characters'
            : draft.secret.length > NOTIFICATION_LIMITS.secretLength
              ? `must be at most ${NOTIFICATION_LIMITS.secretLength} characters`
              : undefined,
    });
  },

  toCreate(draft) {
    if (draft.type === 'email') return { name: draft.name.trim(), type: draft.type, recipients: listOf(draft.recipients) };
    if (draft.type === 'log') return { name: draft.name.trim(), type: draft.type };
    return {
      name: draft.name.trim(),
      type: draft.type,
      ...(draft.url.trim() ? { url: draft.url.trim() } : {}),
      ...(draft.type === 'webhook' && draft.secret ? { secret: draft.secret } : {}),
    };
  },

  /** What the edit changes: the name if renamed, a URL or secret only if one was typed (empty keeps the saved one). */
  toUpdate(draft, channel) {
    const patch: UpdateChannel = {};
    if (draft.name.trim() !== channel.name) patch.name = draft.name.trim();
    if (draft.type === 'email') {
      const recipients = listOf(draft.recipients);
      if (recipients.join('\n') !== channel.recipients.join('\n')) patch.recipients = recipients;
    } else if (CHANNEL_ADDRESS[draft.type] === 'url' && draft.url.trim()) patch.url = draft.url.trim();
    if (draft.type === 'webhook') {
      if (draft.removeSecret) patch.secret = null;
      else if (draft.secret) patch.secret = draft.secret;
    }
    return patch;
  },
};

// ——— rules ———

export interface RuleDraft {
  name: string;
  events: RuleEventType[];
  channelIds: string[];
  /** the policy whose steps the rule's events page, '' for none */
  escalationPolicyId: string;
  breakers: string[];
  breakerTypes: BreakerTypeName[];
  domains: string[];
  severities: AlertSeverity[];
  minIntervalMinutes: string;
  stuckOpenMinutes: string;
  flappingOpenings: string;
  flappingMinutes: string;
}
export type RuleField = keyof RuleDraft;
export const RULE_FIELDS: readonly RuleField[] = [
  'name',
  'events',
  'channelIds',
  'escalationPolicyId',
  'breakers',
  'breakerTypes',
  'domains',
  'severities',
  'minIntervalMinutes',
  'stuckOpenMinutes',
  'flappingOpenings',
  'flappingMinutes',
];

export const emptyRuleDraft = (): RuleDraft => ({
  name: '',
  events: [],
  channelIds: [],
  escalationPolicyId: '',
  breakers: [],
  breakerTypes: [],
  domains: [],
  severities: [],
  minIntervalMinutes: String(RULE_DEFAULTS.minIntervalMinutes),
  stuckOpenMinutes: String(RULE_DEFAULTS.stuckOpenMinutes),
  flappingOpenings: String(RULE_DEFAULTS.flappingOpenings),
  flappingMinutes: String(RULE_DEFAULTS.flappingMinutes),
});

/** Which parts of the rule form apply to the events chosen: breaker filters, domain filters, the stuck and flapping limits. */
export function ruleParts(events: readonly RuleEventType[]) {
  return {
    breakerFilters: events.some((event) => !isDomainEvent(event)),
    domainFilters: events.some(isDomainEvent),
    stuckOpen: events.includes('breaker.stuck_open'),
    flapping: events.includes('breaker.flapping'),
  };
}

export function ruleProblems(draft: RuleDraft): Problems<RuleField> {
  const parts = ruleParts(draft.events);
  return compact<RuleField>({
    name: nameProblem(draft.name),
    events: draft.events.length === 0 ? 'name at least one event type' : undefined,
    // a rule sends to its channels, pages through its policy, or both (reachesSomeone in the contracts)
    channelIds:
      draft.channelIds.length === 0 && !draft.escalationPolicyId ? 'name at least one channel or an escalation policy' : undefined,
    escalationPolicyId: undefined,
    breakers: parts.breakerFilters ? namesProblem(draft.breakers) : undefined,
    breakerTypes: undefined,
    domains: parts.domainFilters ? namesProblem(draft.domains) : undefined,
    severities: undefined,
    minIntervalMinutes: wholeProblem(draft.minIntervalMinutes, 0, 1440, 'minutes'),
    stuckOpenMinutes: parts.stuckOpen ? wholeProblem(draft.stuckOpenMinutes, 1, 1440, 'minutes') : undefined,
    flappingOpenings: parts.flapping ? wholeProblem(draft.flappingOpenings, 2, 1000, 'count') : undefined,
    flappingMinutes: parts.flapping ? wholeProblem(draft.flappingMinutes, 1, 1440, 'minutes') : undefined,
  });
}

/** The whole rule: filters of a kind no chosen event uses are sent empty, limits no chosen event uses as the defaults. */
export function ruleToCreate(draft: RuleDraft): CreateRule {
  const parts = ruleParts(draft.events);
  return {
    name: draft.name.trim(),
    enabled: true,
    events: draft.events,
    channelIds: draft.channelIds,
    escalationPolicyId: draft.escalationPolicyId || null,
    breakers: parts.breakerFilters ? draft.breakers : [],
    breakerTypes: parts.breakerFilters ? draft.breakerTypes : [],
    domains: parts.domainFilters ? draft.domains : [],
    severities: parts.domainFilters ? draft.severities : [],
    minIntervalMinutes: Number(draft.minIntervalMinutes),
    stuckOpenMinutes: parts.stuckOpen ? Number(draft.stuckOpenMinutes) : RULE_DEFAULTS.stuckOpenMinutes,
    flappingOpenings: parts.flapping ? Number(draft.flappingOpenings) : RULE_DEFAULTS.flappingOpenings,
    flappingMinutes: parts.flapping ? Number(draft.flappingMinutes) : RULE_DEFAULTS.flappingMinutes,
  };
}

// ——— maintenance windows ———

export interface WindowDraft {
  name: string;
  /** datetime-local values: the reader's wall-clock time, no zone. */
  startsAt: string;
  endsAt: string;
  repeatWeekly: boolean;
  breakers: string[];
  domains: string[];
}
export type WindowField = keyof WindowDraft;
export const WINDOW_FIELDS: readonly WindowField[] = ['name', 'startsAt', 'endsAt', 'repeatWeekly', 'breakers', 'domains'];

export const emptyWindowDraft = (): WindowDraft => ({ name: '', startsAt: '', endsAt: '', repeatWeekly: false, breakers: [], domains: [] });

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * A datetime-local value as ISO 8601 with the reader's offset at that moment ('2026-05-01T22:00:00+02:00'): the
 * instant they meant, written as they meant it. Null when the field is empty or not a date.
 */
export function localInputToIso(value: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?$/.exec(value);
  const date = new Date(value);
  if (!match || Number.isNaN(date.getTime())) return null;
  const offset = -date.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  return `${match[1]}${match[2] ?? ':00'}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

export function windowProblems(draft: WindowDraft): Problems<WindowField> {
  const startsAt = localInputToIso(draft.startsAt);
  const endsAt = localInputToIso(draft.endsAt);
  const instant = 'must be a date and time (ISO 8601)';
  // the end's place in time is the contracts' rule, the one the API's schema applies
  const timing = startsAt && endsAt ? windowTimingProblems({ startsAt, endsAt, repeatWeekly: draft.repeatWeekly })[0]?.message : undefined;
  return compact<WindowField>({
    name: nameProblem(draft.name),
    startsAt: startsAt ? undefined : instant,
    endsAt: endsAt ? timing : instant,
    repeatWeekly: undefined,
    breakers: namesProblem(draft.breakers),
    domains: namesProblem(draft.domains),
  });
}

/** Only called once windowProblems finds nothing, so both times are dates. */
export function windowToCreate(draft: WindowDraft): CreateWindow {
  return {
    name: draft.name.trim(),
    startsAt: localInputToIso(draft.startsAt)!,
    endsAt: localInputToIso(draft.endsAt)!,
    repeatWeekly: draft.repeatWeekly,
    breakers: draft.breakers,
    domains: draft.domains,
  };
}
