import { createHash } from 'node:crypto';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { RealtimeBus } from '../../platform';

/** A rendering is served this long before it is built again (unless a change of its page drops it first). */
export const FRESH_MS = 3000;
/** Renderings one replica keeps, at most: pages × (HTML, JSON, feed, badges, history pages). */
const MAX_ENTRIES = 2000;

export interface Rendering<T> {
  value: T;
  etag: string;
  /** when it was built */
  at: number;
  /** built before the last failed attempt: the live status could not be read */
  stale: boolean;
}

interface Entry {
  rendering: Rendering<unknown>;
  pageId: number | null;
  freshUntil: number;
  pending?: Promise<Rendering<unknown>>;
}

/** What a build gives: the value, and the page it shows (its changes drop the rendering). */
export interface Built<T> {
  value: T;
  pageId: number | null;
  /** the bytes the ETag is computed over (the value itself when a string) */
  bytes?: string;
}

/**
 * Every replica's last renderings of the status pages, so that a thousand visitors a second cost the database one
 * build per page every FRESH_MS, and so that a page keeps answering while the database is down: a build that fails
 * serves the last rendering instead, marked stale (stale-if-error). A change of a page (the judge stored a new state,
 * an incident moved, the page was edited) reaches every replica over the bus and drops its renderings of that page.
 * Concurrent requests for a rendering being built wait for the one build.
 */
@Injectable()
export class StatusRenderings implements OnModuleInit {
  private readonly logger = new Logger(StatusRenderings.name);
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly bus: RealtimeBus) {}

  onModuleInit() {
    this.bus.subscribeInternal('status-changed', (envelope) => {
      const pages = new Set((envelope.data as { pages?: number[] } | null)?.pages ?? []);
      for (const entry of this.entries.values()) if (entry.pageId === null || pages.has(entry.pageId)) entry.freshUntil = 0;
    });
  }

  async get<T>(key: string, build: () => Promise<Built<T> | null>, now = Date.now()): Promise<Rendering<T> | null> {
    const entry = this.entries.get(key);
    if (entry && now < entry.freshUntil) return entry.rendering as Rendering<T>;
    if (entry?.pending) return (await entry.pending) as Rendering<T>;
    const pending = this.build(key, build, entry);
    if (entry) entry.pending = pending as Promise<Rendering<unknown>>;
    try {
      return await pending;
    } finally {
      const current = this.entries.get(key);
      if (current) delete current.pending;
    }
  }

  private async build<T>(key: string, build: () => Promise<Built<T> | null>, entry: Entry | undefined): Promise<Rendering<T> | null> {
    let built: Built<T> | null;
    try {
      built = await build();
    } catch (error) {
      if (!entry) throw error;
      this.logger.warn(`status rendering ${key} served stale: ${(error as Error).message}`);
      // tried again after a short while, not on every request of a storm
      entry.freshUntil = Date.now() + FRESH_MS;
      entry.rendering = { ...entry.rendering, stale: true };
      return entry.rendering as Rendering<T>;
    }
    if (!built) {
      this.entries.delete(key);
      return null;
    }
    const bytes = built.bytes ?? (typeof built.value === 'string' ? built.value : JSON.stringify(built.value));
    const rendering: Rendering<T> = {
      value: built.value,
      etag: `"${createHash('sha1').update(bytes).digest('base64url')}"`,
      at: Date.now(),
      stale: false,
    };
    if (this.entries.size >= MAX_ENTRIES && !this.entries.has(key)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { rendering, pageId: built.pageId, freshUntil: Date.now() + FRESH_MS });
    return rendering;
  }
}
