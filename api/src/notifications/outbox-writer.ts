import { Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import { NotificationDeliveryEntity } from './entities/notification-delivery.entity';
import { NotificationChannelEntity } from './entities/notification-channel.entity';
import { NotificationsRepository, type NewDelivery } from './notifications.repository';

/** A message of an alert group as its page lists it. */
export interface GroupDelivery {
  delivery: NotificationDeliveryEntity;
  /** the channel's name for a channel's delivery; null for a person's (the on-call context names the recipient) */
  channelName: string | null;
}

/** Deliveries an alert group's page lists at most. */
const GROUP_DELIVERIES = 500;

/**
 * For the on-call context: writes an escalation step's deliveries in the transaction that claims the step (so the
 * step and its messages exist together, or neither), and reads back a group's messages. The outbox delivers them
 * like any other, with its leases and retries.
 */
@Injectable()
export class OutboxWriter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: NotificationsRepository,
  ) {}

  async write(manager: EntityManager, deliveries: NewDelivery[]): Promise<void> {
    await this.repository.insertDeliveries(manager, deliveries);
    // the outbox on every replica wakes at the commit to try them
    if (deliveries.length > 0) await this.repository.wakeAtCommit(manager, 'deliveries-due');
  }

  /** The channels of these ids that exist, with their names. */
  async channels(manager: EntityManager, ids: string[]): Promise<{ id: string; name: string }[]> {
    if (ids.length === 0) return [];
    return manager.getRepository(NotificationChannelEntity).find({ where: { id: In(ids) }, select: { id: true, name: true } });
  }

  async ofAlertGroup(groupId: number): Promise<GroupDelivery[]> {
    const rows = await this.dataSource
      .getRepository(NotificationDeliveryEntity)
      .find({ where: { alertGroupId: groupId }, order: { seq: 'ASC' }, take: GROUP_DELIVERIES });
    const channelIds = [...new Set(rows.flatMap((row) => (row.channelId ? [row.channelId] : [])))];
    const channels = channelIds.length
      ? await this.dataSource
          .getRepository(NotificationChannelEntity)
          .find({ where: { id: In(channelIds) }, select: { id: true, name: true, type: true } })
      : [];
    const names = new Map(channels.map((channel) => [channel.id, `${channel.name} (${channel.type})`]));
    return rows.map((delivery) => ({
      delivery,
      channelName: delivery.channelId ? (names.get(delivery.channelId) ?? 'a deleted channel') : null,
    }));
  }
}
