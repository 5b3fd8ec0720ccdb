import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig, SecretBox } from '../platform';
import { UserEntity } from '../identity';
import { ChannelSender, OutboxAudiences, type NotificationDeliveryEntity, type OutboxAudience, type SendOutcome } from '../notifications';
import { ContactMethodEntity } from './entities/contact-method.entity';
import { ON_CALL_AUDIENCE, recipientOf } from './step-recipients';

const final = (error: string): SendOutcome => ({ ok: false, statusCode: null, durationMs: 0, error, retryable: false });

/** Seals and opens contact methods' URLs (they hold the credentials of a person's Slack, Discord or webhook). */
export function contactMethodBox(config: AppConfig) {
  return new SecretBox(config.SESSION_SECRET, 'contact-method');
}

/**
 * The people an escalation step tells, as an audience of the outbox: each delivery names a person's e-mail or one of
 * their contact methods, and goes out through the channels' own sender (the same words, signature-less webhook body,
 * retries and leases as a channel's). Steps write these deliveries themselves; no event reaches people directly.
 */
@Injectable()
export class OnCallAudience implements OutboxAudience, OnModuleInit {
  readonly name = ON_CALL_AUDIENCE;
  private readonly box: SecretBox;

  constructor(
    private readonly audiences: OutboxAudiences,
    private readonly dataSource: DataSource,
    private readonly sender: ChannelSender,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.box = contactMethodBox(config);
  }

  onModuleInit() {
    this.audiences.register(this);
  }

  recipientsOf(): Promise<{ recipient: string; label: string }[]> {
    return Promise.resolve([]);
  }

  async send(delivery: NotificationDeliveryEntity): Promise<SendOutcome> {
    const to = recipientOf(delivery.recipient);
    const notification = {
      deliveryId: delivery.id,
      type: delivery.eventType,
      occurredAt: delivery.occurredAt.toISOString(),
      data: delivery.payload,
    };
    if (to?.kind === 'email') {
      const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id: to.userId });
      if (!user?.isActive) return final('The account is gone or not active');
      return this.sender.send({ type: 'email', name: user.email, url: null, secret: null, recipients: [user.email] }, notification);
    }
    if (to?.kind === 'contact') {
      const method = await this.dataSource.getRepository(ContactMethodEntity).findOneBy({ id: to.id });
      if (!method) return final('The contact method was removed');
      const owner = await this.dataSource.getRepository(UserEntity).findOneBy({ id: method.userId });
      if (!owner?.isActive) return final('The account is gone or not active');
      const url = this.box.open(method.urlSealed);
      if (!url) return final('The contact method cannot be opened (sealed under another server secret)');
      return this.sender.send({ type: method.type, name: method.label, url, secret: null, recipients: [] }, notification);
    }
    return final(`Not a recipient: ${delivery.recipient ?? 'none'}`);
  }
}
