import { BadRequestException } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import type { CreateEscalationPolicy, CreateSchedule, EscalationPolicyItem, ScheduleItem } from '@cbh/contracts';
import { type AppRequest, requirePermission, UserEntity } from '../identity';
import type { NotificationSettingsService } from '../notifications';
import type { EscalationPoliciesService, EscalationPolicyEntity, ScheduleEntity, SchedulesService } from '../on-call';
import { byName, key, unchanged, type Step } from './steps';

/*
 * On-call schedules and escalation policies in the configuration document, a breaker admin's lists like the
 * notification lists: people by e-mail, channels and schedules by name (ids differ between hubs), resolved when
 * applied inside the import's transaction, so a channel or schedule the same document makes may be named.
 */

export interface OnCallHub {
  schedules: ScheduleEntity[];
  policies: EscalationPolicyEntity[];
  /** account ids to e-mails, and channel and schedule ids to names */
  emails: Map<string, string>;
  channels: Map<string, string>;
}

export async function onCallHubIn(
  manager: EntityManager,
  owners: { schedules: SchedulesService; policies: EscalationPoliciesService; notifications: NotificationSettingsService },
): Promise<OnCallHub> {
  const schedules = await owners.schedules.allIn(manager);
  const policies = await owners.policies.allIn(manager);
  const userIds = [
    ...new Set([
      ...schedules.flatMap((s) => [...s.rotations.flatMap((r) => r.users), ...s.overrides.map((o) => o.user)]),
      ...policies.flatMap((p) => p.steps.flatMap((step) => step.notify.users ?? [])),
    ]),
  ];
  const users = userIds.length ? await manager.getRepository(UserEntity).findBy({ id: In(userIds) }) : [];
  const channels = (await owners.notifications.channelNamesIn(manager)).map((row) => [row.id, row.name] as const);
  return { schedules, policies, emails: new Map(users.map((user) => [user.id, user.email])), channels: new Map(channels) };
}

export function mayImportOnCall(req: AppRequest, document: { schedules?: unknown; escalationPolicies?: unknown }) {
  if (document.schedules !== undefined || document.escalationPolicies !== undefined) {
    requirePermission(req, 'circuit_breaker_admin', { purpose: 'to import on-call schedules and escalation policies' });
  }
}

const emailOf = (hub: OnCallHub, id: string) => hub.emails.get(id) ?? id;

/** JSON with every object's keys sorted: PostgreSQL's jsonb keeps keys in its own order, a document in its author's. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );

function scheduleItem(row: ScheduleEntity, hub: OnCallHub): ScheduleItem {
  return {
    name: row.name,
    timeZone: row.timeZone,
    rotations: row.rotations.map((rotation) => ({ ...rotation, users: rotation.users.map((id) => emailOf(hub, id)) })),
    overrides: row.overrides.map((override) => ({ ...override, user: emailOf(hub, override.user) })),
  };
}

function policyItem(row: EscalationPolicyEntity, hub: OnCallHub): EscalationPolicyItem {
  const scheduleNames = new Map(hub.schedules.map((schedule) => [schedule.id, schedule.name]));
  return {
    name: row.name,
    steps: row.steps.map((step) => ({
      notify: {
        ...(step.notify.channels ? { channels: step.notify.channels.map((id) => hub.channels.get(id) ?? id) } : {}),
        ...(step.notify.users ? { users: step.notify.users.map((id) => emailOf(hub, id)) } : {}),
        ...(step.notify.schedule ? { schedule: scheduleNames.get(step.notify.schedule) ?? step.notify.schedule } : {}),
      },
      waitMinutes: step.waitMinutes,
    })),
    repeat: row.repeat,
  };
}

export function exportOnCall(hub: OnCallHub) {
  return {
    schedules: hub.schedules.map((row) => scheduleItem(row, hub)).sort(byName),
    escalationPolicies: hub.policies.map((row) => policyItem(row, hub)).sort(byName),
  };
}

/** Account ids by e-mail, channel ids by name, schedule ids by name: read in the transaction when a step applies. */
async function resolverIn(manager: EntityManager, owners: { schedules: SchedulesService; notifications: NotificationSettingsService }) {
  const users = await manager.getRepository(UserEntity).find({ select: { id: true, email: true } });
  const ids = new Map(users.map((user) => [key(user.email), user.id]));
  const channels = new Map((await owners.notifications.channelNamesIn(manager)).map((row) => [key(row.name), row.id]));
  const schedules = new Map((await owners.schedules.allIn(manager)).map((row) => [key(row.name), row.id]));
  const find = (map: Map<string, string>, what: string, place: string) => (name: string) => {
    const id = map.get(key(name));
    if (!id) throw new BadRequestException(`${place}: no ${what} ${name}`);
    return id;
  };
  return {
    user: (place: string) => find(ids, 'account with the e-mail', place),
    channel: (place: string) => find(channels, 'channel named', place),
    schedule: (place: string) => find(schedules, 'schedule named', place),
  };
}

type Owners = { schedules: SchedulesService; policies: EscalationPoliciesService; notifications: NotificationSettingsService };

/** The steps of a document's schedules, then its policies (which may name them), against the hub's; deletions first. */
export function onCallSteps(
  owners: Owners,
  req: AppRequest,
  document: { schedules?: ScheduleItem[]; escalationPolicies?: EscalationPolicyItem[] },
  hub: OnCallHub,
  prune: boolean,
): { deleted: Step[]; kept: Step[] } {
  const deleted: Step[] = [];
  const kept: Step[] = [];
  if (document.escalationPolicies) {
    const named = new Set(document.escalationPolicies.map((item) => key(item.name)));
    // policies go before the schedules they may name
    if (prune) {
      for (const row of hub.policies.filter((row) => !named.has(key(row.name)))) {
        deleted.push({
          change: { kind: 'escalationPolicy', name: row.name, action: 'delete' },
          label: `escalation policy ${row.name}`,
          apply: (m) => owners.policies.removeIn(m, req, row.id),
        });
      }
    }
  }
  if (document.schedules) {
    const named = new Set(document.schedules.map((item) => key(item.name)));
    if (prune) {
      for (const row of hub.schedules.filter((row) => !named.has(key(row.name)))) {
        deleted.push({
          change: { kind: 'schedule', name: row.name, action: 'delete' },
          label: `schedule ${row.name}`,
          apply: (m) => owners.schedules.removeIn(m, req, row.id),
        });
      }
    }
    const existing = new Map(hub.schedules.map((row) => [key(row.name), row]));
    document.schedules.forEach((item, index) => {
      const place = `schedules[${index}]`;
      const row = existing.get(key(item.name));
      if (row && canonical(scheduleItem(row, hub)) === canonical(item))
        return kept.push(unchanged('schedule', row.name, `${place} (${item.name})`));
      const body = async (manager: EntityManager): Promise<CreateSchedule> => {
        const resolve = await resolverIn(manager, owners);
        return {
          ...item,
          rotations: item.rotations.map((rotation, r) => ({
            ...rotation,
            users: rotation.users.map(resolve.user(`${place}.rotations[${r}].users`)),
          })),
          overrides: item.overrides.map((override, o) => ({
            ...override,
            user: resolve.user(`${place}.overrides[${o}].user`)(override.user),
          })),
        };
      };
      kept.push({
        change: row ? { kind: 'schedule', name: item.name, action: 'update' } : { kind: 'schedule', name: item.name, action: 'create' },
        label: `${place} (${item.name})`,
        apply: async (manager) => {
          if (row) await owners.schedules.updateIn(manager, req, row.id, await body(manager));
          else await owners.schedules.createIn(manager, req, await body(manager));
        },
      });
    });
  }
  if (document.escalationPolicies) {
    const existing = new Map(hub.policies.map((row) => [key(row.name), row]));
    document.escalationPolicies.forEach((item, index) => {
      const place = `escalationPolicies[${index}]`;
      const row = existing.get(key(item.name));
      const normal = (policy: EscalationPolicyItem) => canonical({ ...policy, repeat: policy.repeat ?? 0 });
      if (row && normal(policyItem(row, hub)) === normal(item))
        return kept.push(unchanged('escalationPolicy', row.name, `${place} (${item.name})`));
      const body = async (manager: EntityManager): Promise<CreateEscalationPolicy> => {
        const resolve = await resolverIn(manager, owners);
        return {
          name: item.name,
          repeat: item.repeat ?? 0,
          steps: item.steps.map((step, s) => ({
            waitMinutes: step.waitMinutes,
            notify: {
              ...(step.notify.channels
                ? { channels: step.notify.channels.map(resolve.channel(`${place}.steps[${s}].notify.channels`)) }
                : {}),
              ...(step.notify.users ? { users: step.notify.users.map(resolve.user(`${place}.steps[${s}].notify.users`)) } : {}),
              ...(step.notify.schedule ? { schedule: resolve.schedule(`${place}.steps[${s}].notify.schedule`)(step.notify.schedule) } : {}),
            },
          })),
        };
      };
      kept.push({
        change: row
          ? { kind: 'escalationPolicy', name: item.name, action: 'update' }
          : { kind: 'escalationPolicy', name: item.name, action: 'create' },
        label: `${place} (${item.name})`,
        apply: async (manager) => {
          if (row) await owners.policies.updateIn(manager, req, row.id, await body(manager));
          else await owners.policies.createIn(manager, req, await body(manager));
        },
      });
    });
  }
  return { deleted, kept };
}
