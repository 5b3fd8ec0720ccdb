import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { SecretBox } from '../common/crypto/secret-box';
import type { NotificationChannelEntity } from './entities/notification-channel.entity';
import type { ChannelTarget } from './senders/channel-sender.types';

/**
 * Seals a channel's URL and secret before they are stored (a webhook or chat URL embeds its credentials) and opens
 * them only to send. The key derives from SESSION_SECRET, so a copy of the table alone gives nothing away.
 */
@Injectable()
export class ChannelSecrets {
  private readonly box: SecretBox;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.box = new SecretBox(config.SESSION_SECRET, 'notification-channel');
  }

  seal(plain: string): string {
    return this.box.seal(plain);
  }

  /** The channel as a sender needs it; a value sealed under another server secret opens as null. */
  target(row: NotificationChannelEntity): ChannelTarget {
    return {
      type: row.type,
      name: row.name,
      url: row.urlSealed ? this.box.open(row.urlSealed) : null,
      secret: row.secretSealed ? this.box.open(row.secretSealed) : null,
      recipients: row.recipients,
    };
  }
}
