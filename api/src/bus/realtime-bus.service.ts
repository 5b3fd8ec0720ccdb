import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { ServerMessage } from '@cbh/contracts';
import { InstanceRegistry } from '../replicas/instance-registry.service';
import { type ChannelListener, NotifyChannel } from './notify-channel';

const RECONNECT_MS = 3000;

export interface BusEnvelope {
  origin: string;
  message: ServerMessage;
}

/** A part of one replica's figures (see metrics/replica-figures.ts): between replicas only, never sent to browsers. */
export interface FiguresEnvelope {
  origin: string;
  figures: unknown;
}

/**
 * Fans live messages out to every API replica through PostgreSQL LISTEN/NOTIFY. Every replica, the
 * publishing one included, receives each message from the database, so all of them see one order. Replicas
 * also share their figures on it, which only the metrics service reads.
 */
@Injectable()
export class RealtimeBus implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RealtimeBus.name);
  private readonly handlers = new Set<(envelope: BusEnvelope) => void>();
  private readonly figureHandlers = new Set<(envelope: FiguresEnvelope) => void>();
  private readonly reconnectHandlers = new Set<() => void>();
  private listener?: ChannelListener;
  private closing = false;

  constructor(
    private readonly channel: NotifyChannel,
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
    await this.listener?.close().catch(() => undefined);
  }

  subscribe(handler: (envelope: BusEnvelope) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** Called each time the LISTEN connection is back after a loss: what was sent meanwhile never arrives. */
  onReconnect(handler: () => void): () => void {
    this.reconnectHandlers.add(handler);
    return () => this.reconnectHandlers.delete(handler);
  }

  subscribeFigures(handler: (envelope: FiguresEnvelope) => void): () => void {
    this.figureHandlers.add(handler);
    return () => this.figureHandlers.delete(handler);
  }

  /** Shares a part of this replica's figures; the caller keeps each payload under NOTIFY's 8,000 bytes. */
  async publishFigures(figures: unknown): Promise<void> {
    const envelope: FiguresEnvelope = { origin: this.instance.id, figures };
    await this.channel.notify(JSON.stringify(envelope));
  }

  async publish(message: ServerMessage): Promise<void> {
    const envelope: BusEnvelope = { origin: this.instance.id, message };
    await this.channel.notify(JSON.stringify(envelope));
  }

  private async listen() {
    this.listener = await this.channel.listen(
      (payload) => {
        let envelope: BusEnvelope | FiguresEnvelope;
        try {
          envelope = JSON.parse(payload);
        } catch {
          return;
        }
        if (typeof envelope !== 'object' || envelope === null) return;
        if ('figures' in envelope) for (const handler of this.figureHandlers) handler(envelope);
        else for (const handler of this.handlers) handler(envelope);
      },
      (error) => {
        this.logger.warn(`lost the LISTEN connection: ${error.message}; reconnecting in ${RECONNECT_MS / 1000} s`);
        this.reconnectSoon();
      },
    );
  }

  private reconnectSoon() {
    if (this.closing) return;
    setTimeout(
      () =>
        void this.listen().then(
          () => this.reconnectHandlers.forEach((handler) => handler()),
          (error: Error) => {
            this.logger.warn(`LISTEN reconnect failed: ${error.message}`);
            this.reconnectSoon();
          },
        ),
      RECONNECT_MS,
    ).unref();
  }
}
