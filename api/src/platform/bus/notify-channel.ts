import { Injectable } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

/** The PostgreSQL notification channel every replica publishes on and listens to. */
const CHANNEL = 'cbh_events';

export interface ChannelListener {
  close(): Promise<void>;
}

/**
 * PostgreSQL NOTIFY on the channel, and LISTEN on a connection of its own: a pooled connection could not
 * stay subscribed, since the pool hands it to other queries and may close it.
 */
@Injectable()
export class NotifyChannel {
  constructor(private readonly dataSource: DataSource) {}

  /** Sends the payload to every listener, this replica's included. */
  async notify(payload: string): Promise<void> {
    await this.dataSource.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
  }

  /**
   * Opens a listening connection: onPayload receives each payload sent on the channel, onError the loss of
   * the connection once it is established (the listener is dead then; open another one to carry on).
   */
  async listen(onPayload: (payload: string) => void, onError: (error: Error) => void): Promise<ChannelListener> {
    const client = new Client({ connectionString: (this.dataSource.options as { url: string }).url });
    client.on('notification', (notification) => {
      if (notification.channel === CHANNEL && notification.payload) onPayload(notification.payload);
    });
    client.on('error', onError);
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    return { close: () => client.end() };
  }
}
