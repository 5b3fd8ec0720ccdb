import { Inject, Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { alertGroupPath, type AlertGroupMessageData, type WebhookBody } from '@cbh/contracts';
import { APP_CONFIG, type AppConfig } from '../platform';
import { UserEntity } from '../identity';
import { OutboxWriter, type NewDelivery } from '../notifications';
import { AcknowledgeLinks, type AckRecipient } from './acknowledge-links';
import { ContactMethodEntity } from './entities/contact-method.entity';
import type { AlertGroupEntity } from './entities/alert-group.entity';
import type { EscalationPolicyEntity } from './entities/escalation-policy.entity';
import { ScheduleEntity } from './entities/schedule.entity';
import { onCallAt } from './on-call-at';

/** The audience name of a person's messages (on-call-audience.ts sends them). */
export const ON_CALL_AUDIENCE = 'on_call';

/** A person's message goes to their e-mail (`email:<user id>`) or one of their contact methods (`contact:<id>`). */
export type PersonRecipient = { kind: 'email'; userId: string } | { kind: 'contact'; id: string };

export function recipientOf(text: string | null): PersonRecipient | null {
  const [kind, id] = (text ?? '').split(':');
  if (kind === 'email' && id) return { kind: 'email', userId: id };
  if (kind === 'contact' && id) return { kind: 'contact', id };
  return null;
}

type Step = EscalationPolicyEntity['steps'][number];

/**
 * What a turn of the runner has read already: a thousand groups of one policy name the same channels, schedules and
 * people, read once a turn rather than once a group.
 */
export class TurnReads {
  readonly channels = new Map<string, { id: string; name: string } | null>();
  readonly schedules = new Map<string, ScheduleEntity | null>();
  readonly users = new Map<string, UserEntity | null>();
  readonly methods = new Map<string, ContactMethodEntity[]>();
}

/** What one step sends, and whom it names, in words for the timeline. */
export interface StepMessages {
  deliveries: NewDelivery[];
  told: string[];
}

/**
 * Turns one escalation step into deliveries: each channel it names, and each person it names or its schedule has on
 * call now, on their e-mail and every contact method they keep. Every message carries the group and a link that
 * acknowledges it, bound to the person or channel it goes to.
 */
@Injectable()
export class StepRecipients {
  constructor(
    private readonly links: AcknowledgeLinks,
    private readonly outbox: OutboxWriter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async of(
    manager: EntityManager,
    group: AlertGroupEntity,
    step: Step,
    number: number,
    reads = new TurnReads(),
    now = new Date(),
  ): Promise<StepMessages> {
    const told: string[] = [];
    const deliveries: NewDelivery[] = [];
    const message = (to: AckRecipient) =>
      ({
        ...group.openingData,
        url: `${this.config.PUBLIC_URL}${alertGroupPath(group.id)}`,
        alertGroup: {
          id: group.id,
          state: group.state,
          step: number,
          url: `${this.config.PUBLIC_URL}${alertGroupPath(group.id)}`,
          acknowledgeUrl: this.links.url(group.id, to),
        } satisfies AlertGroupMessageData,
      }) as WebhookBody['data'];
    const base = {
      eventId: null,
      eventType: group.openingType as NewDelivery['eventType'],
      subject: group.subjectName,
      subjectKind: group.subjectKind === 'slo' ? null : group.subjectKind,
      occurredAt: now,
      ruleId: group.ruleId,
      ruleName: null,
      status: 'pending' as const,
      alertGroupId: group.id,
      step: number,
    };

    const channelIds = step.notify.channels ?? [];
    const unread = channelIds.filter((id) => !reads.channels.has(id));
    if (unread.length) {
      const found = new Map((await this.outbox.channels(manager, unread)).map((channel) => [channel.id, channel]));
      for (const id of unread) reads.channels.set(id, found.get(id) ?? null);
    }
    for (const channel of channelIds.flatMap((id) => reads.channels.get(id) ?? [])) {
      deliveries.push({ ...base, payload: message({ kind: 'channel', id: channel.id }), channelId: channel.id });
      told.push(`channel ${channel.name}`);
    }

    const people = new Set(step.notify.users ?? []);
    if (step.notify.schedule) {
      const id = step.notify.schedule;
      if (!reads.schedules.has(id)) reads.schedules.set(id, await manager.getRepository(ScheduleEntity).findOneBy({ id }));
      const schedule = reads.schedules.get(id)!;
      const onCall = schedule ? onCallAt(schedule, now) : null;
      if (onCall) people.add(onCall);
      else told.push(schedule ? `schedule ${schedule.name}: nobody on call` : 'a deleted schedule');
    }
    if (people.size > 0) {
      const unreadPeople = [...people].filter((id) => !reads.users.has(id));
      if (unreadPeople.length) {
        const users = new Map((await manager.getRepository(UserEntity).findBy({ id: In(unreadPeople) })).map((user) => [user.id, user]));
        const methods = await manager.getRepository(ContactMethodEntity).findBy({ userId: In(unreadPeople) });
        for (const id of unreadPeople) {
          reads.users.set(id, users.get(id) ?? null);
          reads.methods.set(
            id,
            methods.filter((method) => method.userId === id),
          );
        }
      }
      for (const user of [...people].flatMap((id) => reads.users.get(id) ?? [])) {
        const payload = message({ kind: 'user', id: user.id });
        const personal = { ...base, payload, channelId: null, audience: ON_CALL_AUDIENCE };
        // an account not yet activated (or deactivated) is told nothing, on no method
        if (!user.isActive) {
          told.push(`${user.email} (not active: not told)`);
          continue;
        }
        deliveries.push({ ...personal, recipient: `email:${user.id}` });
        for (const method of reads.methods.get(user.id) ?? []) {
          deliveries.push({ ...personal, recipient: `contact:${method.id}` });
        }
        told.push(user.email);
      }
    }
    return { deliveries, told };
  }
}
