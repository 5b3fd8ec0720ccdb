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
    await manager.getRepository(AlertGroupEntryEntity).insert({
      groupId: group.id,
      kind: entry.kind,
      text: entry.text,
      eventType: entry.eventType ?? null,
      step: entry.step ?? null,
      actor: entry.actor ?? null,
      subject: entry.subject ?? null,
    });
  }

  /** Saves the group's row and tells the viewers. */
  async save(manager: EntityManager, group: AlertGroupEntity): Promise<void> {
    await manager.getRepository(AlertGroupEntity).save(group);
    await this.repository.announce(manager, group);
  }

  async raise(manager: EntityManager, group: AlertGroupEntity, type: AlertGroupEventType, detail: { by?: string; step?: number }) {
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
    await this.events.raiseIn(manager, { type, subject: { kind: 'alert_group', id: group.id, name: group.title }, data });
  }
}
