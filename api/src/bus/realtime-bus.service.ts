import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { ServerMessage } from '@cbh/contracts';
import { InstanceRegistry } from '../replicas/instance-registry.service';
import { type ChannelListener, NotifyChannel } from './notify-channel';

const RECONNECT_MS = 3000;

export interface BusEnvelope {
  origin: string;
  message: ServerMessage;
}

/**
 * What replicas tell each other and no browser hears: a part of a replica's figures (metrics/replica-figures.ts),
 * the key of a session that ended (its sockets close on every replica), or that a replica shutting down let go of
 * its load tests (the others claim them now).
 */
export type InternalKind = 'figures' | 'session-ended' | 'sessions-released';
export interface InternalEnvelope {
  origin: string;
  internal: InternalKind;
  data: unknown;
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
  private readonly internalHandlers = new Map<InternalKind, Set<(envelope: InternalEnvelope) => void>>();
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

  subscribeInternal(kind: InternalKind, handler: (envelope: InternalEnvelope) => void): () => void {
    const handlers = this.internalHandlers.get(kind) ?? new Set();
    this.internalHandlers.set(kind, handlers);
    handlers.add(handler);
    return () => handlers.delete(handler);
  }

  /** Tells every replica (this one too) something no browser hears; the caller keeps data under NOTIFY's 8,000 bytes. */
  async publishInternal(kind: InternalKind, data: unknown): Promise<void> {
    const envelope: InternalEnvelope = { origin: this.instance.id, internal: kind, data };
    await this.channel.notify(JSON.stringify(envelope));
  }

  async publish(message: ServerMessage): Promise<void> {
    const envelope: BusEnvelope = { origin: this.instance.id, message };
    await this.channel.notify(JSON.stringify(envelope));
  }

  private async listen() {
    this.listener = await this.channel.listen(
      (payload) => {
        let envelope: BusEnvelope | InternalEnvelope;
        try {
          envelope = JSON.parse(payload);
        } catch {
          return;
        }
        if (typeof envelope !== 'object' || envelope === null) return;
        if ('internal' in envelope) this.internalHandlers.get(envelope.internal)?.forEach((handler) => handler(envelope));
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
