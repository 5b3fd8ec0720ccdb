import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { ServerMessage } from '@cbh/contracts';
import { InstanceRegistry } from '../replicas/instance-registry.service';
import { type ChannelListener, NotifyChannel } from './notify-channel';

const RECONNECT_MS = 3000;
/** A NOTIFY payload is at most 8,000 bytes: a batch stays under this. */
const BATCH_BYTES = 7_900;
/** Publications waiting for the database, at most: past this (the database away for long), a publish fails at once. */
const MAX_WAITING = 10_000;

interface Waiting {
  payload: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

export interface BusEnvelope {
  origin: string;
  message: ServerMessage;
}

/**
 * What replicas tell each other and no browser hears:
 * - a part of a replica's figures (metrics/replica-figures.ts);
 * - the key of a session that ended (its sockets close on every replica), the id of a personal access token that was
 *   revoked (every replica forgets its copy and closes the token's sockets);
 * - that a replica shutting down let go of its load tests (the others claim them now);
 * - that the organisation's settings changed (every replica reads them again);
 * - work waiting (the runners sleep until their work falls due, and wake at once), each told when the transaction
 *   that wrote it commits: by the database's triggers, notification events (the dispatcher fans them out) and a scrape
 *   target, a domain or an alert group's next step due sooner than the replicas knew; by the writer, deliveries (a
 *   fan-out's, an escalation step's or a retry asked for: every replica's outbox tries them);
 * - that the replica merging the fleet's figures wrote some (the others read them at once), or that a replica starts
 *   to read them (the merger writes them all).
 */
export type InternalKind =
  | 'figures'
  | 'session-ended'
  | 'sessions-released'
  | 'token-revoked'
  | 'organization-changed'
  | 'notifications-due'
  | 'deliveries-due'
  | 'releases-changed'
  | 'status-changed'
  | 'drills-changed'
  | 'fleet-figures'
  | 'fleet-figures-wanted'
  | 'scrape-targets-due'
  | 'domains-due'
  | 'escalations-due';
export interface InternalEnvelope {
  origin: string;
  internal: InternalKind;
  data: unknown;
}

/**
 * Fans live messages out to every API replica through PostgreSQL LISTEN/NOTIFY. Every replica, the
 * publishing one included, receives each message from the database, so all of them see one order. Replicas
 * also share their figures on it, which only the metrics service reads.
 *
 * A replica's publications leave in the order they were made: one NOTIFY at a time, and what is published while
 * one is on its way (or in the same turn, such as a manual control's stateChange and configUpdated) travels
 * together in the next as a JSON array. Receivers then hear both at once, and /ws writes them to a socket together.
 */
@Injectable()
export class RealtimeBus implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RealtimeBus.name);
  /** Each receives the live messages of one notification, in order. */
  private readonly handlers = new Set<(envelopes: readonly BusEnvelope[]) => void>();
  private readonly internalHandlers = new Map<InternalKind, Set<(envelope: InternalEnvelope) => void>>();
  private readonly reconnectHandlers = new Set<() => void>();
  private listener?: ChannelListener;
  private closing = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private readonly waiting: Waiting[] = [];
  private sending = false;

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
    clearTimeout(this.reconnectTimer);
    await this.listener?.close().catch(() => undefined);
  }

  subscribe(handler: (envelope: BusEnvelope) => void): () => void {
    return this.subscribeBatches((envelopes) => envelopes.forEach(handler));
  }

  /** The live messages that arrived together, at once: for a receiver that does better with all of them (/ws). */
  subscribeBatches(handler: (envelopes: readonly BusEnvelope[]) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** Called each time the LISTEN connection is back after a loss: what was sent meanwhile never arrives. */
  onReconnect(handler: () => void): () => void {
    this.reconnectHandlers.add(handler);
    return () => this.reconnectHandlers.delete(handler);
  }

  /**
   * Keeps something up to date with what other replicas tell: `act` runs when one of `kinds` arrives (those `accepts`
   * takes) and when the LISTEN connection is back, since what was told meanwhile never arrives. For a job that sleeps
   * until its work falls due (PeriodicWork.whenDue: act is its runAgain) and a cache that reloads on a change. `act`
   * handles its own failures: nothing here awaits or catches what it returns.
   */
  whenTold(kinds: InternalKind[], act: () => unknown, accepts: (envelope: InternalEnvelope) => boolean = () => true): void {
    const run = () => void act();
    for (const kind of kinds) this.subscribeInternal(kind, (envelope) => accepts(envelope) && run());
    this.onReconnect(run);
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
    return this.send(JSON.stringify(envelope));
  }

  publish(message: ServerMessage): Promise<void> {
    const envelope: BusEnvelope = { origin: this.instance.id, message };
    return this.send(JSON.stringify(envelope));
  }

  /**
   * Hands live messages to this replica's own receivers only (its /ws sockets), with no NOTIFY: for what every replica
   * works out alike from the database (the agents' breakers' merged states), where a NOTIFY from each would reach every
   * socket once per replica.
   */
  publishHere(...messages: ServerMessage[]): void {
    if (messages.length === 0) return;
    const envelopes = messages.map((message): BusEnvelope => ({ origin: this.instance.id, message }));
    for (const handler of this.handlers) handler(envelopes);
  }

  /** Resolves once the payload's NOTIFY is done; it leaves after every payload sent before it. */
  private send(payload: string): Promise<void> {
    if (this.waiting.length >= MAX_WAITING) {
      return Promise.reject(new Error(`${MAX_WAITING} messages are waiting for the database; this one is dropped`));
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ payload, resolve, reject });
      if (this.sending) return;
      this.sending = true;
      // after this turn, its promises' callbacks included: what the same turn publishes goes in the same NOTIFY
      setImmediate(() => void this.drain());
    });
  }

  private async drain() {
    while (this.waiting.length > 0) {
      const batch = takeBatch(this.waiting);
      const payloads = batch.map((entry) => entry.payload);
      const payload = payloads.length === 1 ? payloads.join('') : `[${payloads.join(',')}]`;
      try {
        await this.channel.notify(payload);
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error as Error);
      }
    }
    this.sending = false;
  }

  private async listen() {
    const listener = await this.channel.listen(
      (payload) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(payload);
        } catch {
          return;
        }
        this.dispatch(Array.isArray(parsed) ? parsed : [parsed]);
      },
      (error) => {
        this.logger.warn(`lost the LISTEN connection: ${error.message}; reconnecting in ${RECONNECT_MS / 1000} s`);
        this.reconnectSoon();
      },
    );
    // a reconnect that finished after shutdown began must not leave its connection open
    if (this.closing) await listener.close().catch(() => undefined);
    else this.listener = listener;
  }

  /** Hands a notification's envelopes on in order: runs of live messages together, internal ones one by one. */
  private dispatch(envelopes: unknown[]) {
    let live: BusEnvelope[] = [];
    const handOn = () => {
      if (live.length > 0) for (const handler of this.handlers) handler(live);
      live = [];
    };
    for (const envelope of envelopes) {
      if (typeof envelope !== 'object' || envelope === null) continue;
      if ('internal' in envelope) {
        handOn();
        const internal = envelope as InternalEnvelope;
        this.internalHandlers.get(internal.internal)?.forEach((handler) => handler(internal));
      } else live.push(envelope as BusEnvelope);
    }
    handOn();
  }

  /** One reconnection pending at a time: a lost connection may report itself more than once (error, then end). */
  private reconnectSoon() {
    if (this.closing || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.listen().then(
        () => this.reconnectHandlers.forEach((handler) => handler()),
        (error: Error) => {
          this.logger.warn(`LISTEN reconnect failed: ${error.message}`);
          this.reconnectSoon();
        },
      );
    }, RECONNECT_MS);
    this.reconnectTimer.unref();
  }
}

/** The first waiting payloads whose array fits one NOTIFY; at least one, which fails alone if it is too large itself. */
function takeBatch(waiting: Waiting[]): Waiting[] {
  let bytes = 2;
  let count = 0;
  for (const { payload } of waiting) {
    bytes += Buffer.byteLength(payload) + 1;
    if (count > 0 && bytes > BATCH_BYTES) break;
    count++;
  }
  return waiting.splice(0, count);
}
