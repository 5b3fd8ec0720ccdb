import { createChannelSchema, createRuleSchema, createWindowSchema, RULE_DEFAULTS } from '@cbh/contracts';
import {
  CHANNEL_FORM,
  emptyRuleDraft,
  emptyWindowDraft,
  localInputToIso,
  ruleProblems,
  ruleToCreate,
  windowProblems,
  type ChannelDraft,
  type RuleDraft,
  type WindowDraft,
} from './notification-forms';
import type { Problems } from '../shared/form-checks';

/** The first message the schema gives for each top-level field, as the form's checks give theirs. */
function schemaProblems(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const problems: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) problems[String(issue.path[0] ?? 'form')] ??= issue.message;
  return problems;
}

/** The form's words are the schema's; a list item's problem also quotes the item ("“bob@” must be an e-mail address"). */
function expectSameProblems(form: Problems<string>, schema: Record<string, string>) {
  expect(Object.keys(form).sort()).toEqual(Object.keys(schema).sort());
  for (const [field, message] of Object.entries(schema))
    expect(form[field]).toMatch(new RegExp(`${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
}

const LONG_NAME = 'n'.repeat(101);
const CHANNEL_ID = '0b6f1c9e-3b0a-4d2e-9f5a-0a1b2c3d4e5f';
const POLICY_ID = '1c7a2d0f-4c1b-4e3f-8a6b-1b2c3d4e5f6a';

describe('the channel form judges as createChannelSchema does', () => {
  const webhook = (fields: Partial<ChannelDraft>): ChannelDraft => ({
    ...CHANNEL_FORM.empty('webhook'),
    name: 'On-call',
    url: 'https://hooks.example.com/x',
    ...fields,
  });
  const email = (fields: Partial<ChannelDraft>): ChannelDraft => ({
    ...CHANNEL_FORM.empty('email'),
    name: 'Ops',
    recipients: 'ops@example.com',
    ...fields,
  });

  it.each<[string, ChannelDraft]>([
    ['a webhook', webhook({ secret: 'a-long-secret' })],
    ['a Slack webhook', webhook({ type: 'slack' })],
    ['e-mail to two, comma and newline separated', email({ recipients: 'a@example.com,\n b@example.com' })],
    ['no name', webhook({ name: '  ' })],
    ['a name too long', webhook({ name: LONG_NAME })],
    ['no scheme', webhook({ url: 'hooks.example.com/x' })],
    ['another scheme', webhook({ url: 'ftp://hooks.example.com' })],
    ['no URL', webhook({ url: '' })],
    ['a URL too long', webhook({ url: `https://example.com/${'x'.repeat(2000)}` })],
    ['a short secret', webhook({ secret: 'short' })],
    ['a secret too long', webhook({ secret: 's'.repeat(201) })],
    ['no recipients', email({ recipients: ' , ' })],
    ['a bad address', email({ recipients: 'ops@example.com, bob@' })],
    ['too many addresses', email({ recipients: Array.from({ length: 21 }, (_, i) => `p${i}@example.com`).join(',') })],
  ])('%s', (_case, draft) => {
    expectSameProblems(CHANNEL_FORM.problems(draft, true), schemaProblems(createChannelSchema.safeParse(CHANNEL_FORM.toCreate(draft))));
  });

  it('keeps the saved URL and secret when their fields are left empty, and removes the secret when asked', () => {
    const saved = {
      id: CHANNEL_ID,
      name: 'On-call',
      type: 'webhook' as const,
      recipients: [],
      urlSet: true,
      urlHost: 'hooks.example.com',
      secretSet: true,
      createdAt: '',
      updatedAt: '',
      lastDelivery: null,
    };
    const draft = { ...CHANNEL_FORM.empty('webhook'), name: 'On-call' };
    expect(CHANNEL_FORM.problems(draft, false)).toEqual({});
    expect(CHANNEL_FORM.toUpdate(draft, saved)).toEqual({});
    expect(CHANNEL_FORM.toUpdate({ ...draft, name: 'Pager', url: ' https://new.example.com ' }, saved)).toEqual({
      name: 'Pager',
      url: 'https://new.example.com',
    });
    expect(CHANNEL_FORM.toUpdate({ ...draft, removeSecret: true }, saved)).toEqual({ secret: null });
  });
});

describe('the rule form judges as createRuleSchema does', () => {
  const rule = (fields: Partial<RuleDraft>): RuleDraft => ({
    ...emptyRuleDraft(),
    name: 'Page on-call',
    events: ['breaker.opened'],
    channelIds: [CHANNEL_ID],
    ...fields,
  });

  it.each<[string, RuleDraft]>([
    ['the defaults', rule({})],
    [
      'every event with filters',
      rule({ events: ['breaker.flapping', 'domain.alert.opened'], breakers: ['a', 'b'], severities: ['critical'] }),
    ],
    ['no name', rule({ name: '' })],
    ['no event', rule({ events: [] })],
    ['no channel', rule({ channelIds: [] })],
    ['no channel, an escalation policy', rule({ channelIds: [], escalationPolicyId: POLICY_ID })],
    ['channels and an escalation policy', rule({ escalationPolicyId: POLICY_ID })],
    ['a breaker name too long', rule({ breakers: ['x'.repeat(201)] })],
    ['too many breaker names', rule({ breakers: Array.from({ length: 101 }, (_, i) => `b${i}`) })],
    ['a fractional interval', rule({ minIntervalMinutes: '2.5' })],
    ['a negative interval', rule({ minIntervalMinutes: '-1' })],
    ['an interval over a day', rule({ minIntervalMinutes: '1441' })],
    ['stuck open after no time', rule({ events: ['breaker.stuck_open'], stuckOpenMinutes: '0' })],
    ['flapping at one opening', rule({ events: ['breaker.flapping'], flappingOpenings: '1' })],
    ['flapping at too many openings', rule({ events: ['breaker.flapping'], flappingOpenings: '1001' })],
    ['flapping over no time', rule({ events: ['breaker.flapping'], flappingMinutes: '0' })],
  ])('%s', (_case, draft) => {
    expectSameProblems(ruleProblems(draft), schemaProblems(createRuleSchema.safeParse(ruleToCreate(draft))));
  });

  it('asks for a number in a field left empty, which would otherwise be sent as 0', () => {
    expect(ruleProblems(rule({ minIntervalMinutes: ' ' }))).toEqual({ minIntervalMinutes: 'must be a number of minutes' });
  });

  it('sends only the filters and limits the chosen events use', () => {
    const draft = rule({ breakers: ['payments'], domains: ['example.com'], severities: ['high'], stuckOpenMinutes: '60' });
    expect(ruleToCreate(draft)).toEqual({
      name: 'Page on-call',
      enabled: true,
      events: ['breaker.opened'],
      channelIds: [CHANNEL_ID],
      escalationPolicyId: null,
      breakers: ['payments'],
      breakerTypes: [],
      domains: [],
      severities: [],
      ...RULE_DEFAULTS,
    });
  });

  it('carries the escalation policy chosen, and sends none as null', () => {
    expect(ruleToCreate(rule({ channelIds: [], escalationPolicyId: POLICY_ID }))).toMatchObject({
      channelIds: [],
      escalationPolicyId: POLICY_ID,
    });
    expect(ruleToCreate(rule({})).escalationPolicyId).toBeNull();
    expect(ruleProblems(rule({ channelIds: [], escalationPolicyId: POLICY_ID }))).toEqual({});
  });
});

describe('the maintenance window form judges as createWindowSchema does', () => {
  const window = (fields: Partial<WindowDraft>): WindowDraft => ({
    ...emptyWindowDraft(),
    name: 'Deploy',
    startsAt: '2026-05-01T22:00',
    endsAt: '2026-05-01T23:30',
    ...fields,
  });
  const body = (draft: WindowDraft) => ({
    name: draft.name,
    startsAt: localInputToIso(draft.startsAt) ?? draft.startsAt,
    endsAt: localInputToIso(draft.endsAt) ?? draft.endsAt,
    repeatWeekly: draft.repeatWeekly,
    breakers: draft.breakers,
    domains: [],
  });

  it.each<[string, WindowDraft]>([
    ['an evening', window({})],
    ['weekly for a week', window({ repeatWeekly: true, endsAt: '2026-05-08T22:00' })],
    ['no name', window({ name: '' })],
    ['no start', window({ startsAt: '' })],
    ['no end', window({ endsAt: '' })],
    ['an end before the start', window({ endsAt: '2026-05-01T21:00' })],
    ['weekly for more than a week', window({ repeatWeekly: true, endsAt: '2026-05-08T22:01' })],
  ])('%s', (_case, draft) => {
    expectSameProblems(windowProblems(draft), schemaProblems(createWindowSchema.safeParse(body(draft))));
  });

  it('writes the reader’s wall-clock time with their offset at that moment', () => {
    const iso = localInputToIso('2026-05-01T22:00')!;
    expect(iso).toMatch(/^2026-05-01T22:00:00[+-]\d{2}:\d{2}$/);
    expect(Date.parse(iso)).toBe(new Date('2026-05-01T22:00').getTime());
    expect(localInputToIso('')).toBeNull();
  });
});
