import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import type { UpdateChannel } from '@cbh/contracts';
import { APP_CONFIG, type AppConfig, movesOrigin, SecretBox } from '../platform';
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

  /**
   * A channel's secret signs what goes to its URL's origin: a URL on another origin keeps it only when the change gives
   * it again (or null to send unsigned), else 400 naming the field. Where the URL the hub holds cannot be opened (sealed
   * under another server secret), the origin is taken as moving.
   */
  mayKeepSecret(row: NotificationChannelEntity, patch: UpdateChannel) {
    if (patch.url === undefined || patch.secret !== undefined || row.secretSealed === null) return;
    const current = this.target(row).url;
    if (current !== null && !movesOrigin(current, patch.url)) return;
    throw new BadRequestException(
      `secret: the URL moves to ${new URL(patch.url).origin}; give the secret again for it, or null to send without one`,
    );
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
