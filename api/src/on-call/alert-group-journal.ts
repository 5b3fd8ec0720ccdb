import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { alertGroupPath, type AlertGroupEventData, type AlertGroupEventType } from '@cbh/contracts';
import { APP_CONFIG, type AppConfig, HubEvents } from '../platform';
import { AlertGroupsRepository } from './alert-groups.repository';
import { AlertGroupEntryEntity } from './entities/alert-group-entry.entity';
import { AlertGroupEntity } from './entities/alert-group.entity';

type Entry = Pick<AlertGroupEntryEntity, 'kind' | 'text'> &
  Partial<Pick<AlertGroupEntryEntity, 'eventType' | 'step' | 'actor' | 'subject'>>;

/**
 * What an escalation turn changes, written at its end in a few statements whatever the number of groups: every
 * step's entry, every group's new escalation fields and live message, every alert_group.escalated event.
 */
export class JournalBatch {
  readonly entries: (Entry & { group: AlertGroupEntity })[] = [];
  readonly groups = new Set<AlertGroupEntity>();
  readonly events: { group: AlertGroupEntity; type: AlertGroupEventType; detail: { by?: string; step?: number } }[] = [];

  entry(group: AlertGroupEntity, entry: Entry) {
    this.entries.push({ ...entry, group });
  }

  changed(group: AlertGroupEntity) {
    this.groups.add(group);
  }

  raise(group: AlertGroupEntity, type: AlertGroupEventType, detail: { by?: string; step?: number }) {
    this.events.push({ group, type, detail });
  }
}

/**
 * What changes a group writes in the same transaction as the change: its timeline, its row (announced to the /ws
 * viewers of every replica at commit), and the alert_group.* events notification rules may route.
 */
@Injectable()
export class AlertGroupJournal {
  constructor(
    private readonly repository: AlertGroupsRepository,
    private readonly events: HubEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async entry(manager: EntityManager, group: AlertGroupEntity, entry: Entry): Promise<void> {
    await manager.getRepository(AlertGroupEntryEntity).insert(entryRow(group, entry));
  }

  /** Writes a turn's batch: one insert of entries, one update of the groups, one of events, a few NOTIFYs. */
  async flush(manager: EntityManager, batch: JournalBatch): Promise<void> {
    if (batch.entries.length)
      await manager.getRepository(AlertGroupEntryEntity).insert(batch.entries.map(({ group, ...entry }) => entryRow(group, entry)));
    const groups = [...batch.groups];
    await this.repository.saveEscalations(manager, groups);
    await this.events.raiseAllIn(
      manager,
      batch.events.map(({ group, type, detail }) => this.event(group, type, detail)),
    );
    await this.repository.announceAll(manager, groups);
  }

  /** Saves the group's row and tells the viewers. */
  async save(manager: EntityManager, group: AlertGroupEntity): Promise<void> {
    await manager.getRepository(AlertGroupEntity).save(group);
    await this.repository.announce(manager, group);
  }

  async raise(manager: EntityManager, group: AlertGroupEntity, type: AlertGroupEventType, detail: { by?: string; step?: number }) {
    await this.events.raiseIn(manager, this.event(group, type, detail));
  }

  private event(group: AlertGroupEntity, type: AlertGroupEventType, detail: { by?: string; step?: number }) {
    const data: AlertGroupEventData = {
      alertGroup: {
        id: group.id,
        title: group.title,
        state: group.state,
        subject: { kind: group.subjectKind, id: group.subjectId, name: group.subjectName },
      },
      ...detail,
      url: `${this.config.PUBLIC_URL}${alertGroupPath(group.id)}`,
    };
    return { type, subject: { kind: 'alert_group', id: group.id, name: group.title }, data };
  }
}

function entryRow(group: AlertGroupEntity, entry: Entry) {
  return {
    groupId: group.id,
    kind: entry.kind,
    text: entry.text,
    eventType: entry.eventType ?? null,
    step: entry.step ?? null,
    actor: entry.actor ?? null,
    subject: entry.subject ?? null,
  };
}
