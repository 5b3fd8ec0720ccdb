import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { ServerMessage } from '@cbh/contracts';
import { InstanceRegistry } from '../replicas/instance-registry.service';

const CHANNEL = 'cbh_events';
const RECONNECT_MS = 3000;

export interface BusEnvelope {
  origin: string;
  message: ServerMessage;
}

/**
 * Fans live messages out to every API replica through PostgreSQL LISTEN/NOTIFY. Every replica, the
 * publishing one included, receives each message from the database, so all of them see one order.
 */
@Injectable()
export class RealtimeBus implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RealtimeBus.name);
  private readonly handlers = new Set<(envelope: BusEnvelope) => void>();
  private listener?: Client;
  private closing = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly instance: InstanceRegistry,
  ) {}

  get instanceId() {
    return this.instance.id;
  }

  async onModuleInit() {
    await this.listen();
  }

  async onApplicationShutdown() {
    this.closing = true;
    await this.listener?.end().catch(() => undefined);
  }

  subscribe(handler: (envelope: BusEnvelope) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  async publish(message: ServerMessage): Promise<void> {
    const envelope: BusEnvelope = { origin: this.instance.id, message };
    await this.dataSource.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(envelope)]);
  }

  private async listen() {
    const client = new Client({ connectionString: (this.dataSource.options as { url: string }).url });
    client.on('notification', (notification) => {
      if (notification.channel !== CHANNEL || !notification.payload) return;
      let envelope: BusEnvelope;
      try {
        envelope = JSON.parse(notification.payload);
      } catch {
        return;
      }
      for (const handler of this.handlers) handler(envelope);
    });
    client.on('error', (error) => {
      this.logger.warn(`lost the LISTEN connection: ${error.message}; reconnecting in ${RECONNECT_MS / 1000} s`);
      this.reconnectSoon();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
  }

  private reconnectSoon() {
    if (this.closing) return;
    setTimeout(() => void this.listen().catch((error: Error) => {
      this.logger.warn(`LISTEN reconnect failed: ${error.message}`);
      this.reconnectSoon();
    }), RECONNECT_MS).unref();
  }
}
