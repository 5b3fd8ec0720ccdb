import { createHash } from 'node:crypto';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { RealtimeBus } from '../../platform';

/** A rendering is served this long before it is built again (unless a change of its page drops it first). */
export const FRESH_MS = 3000;
/** Renderings one replica keeps, at most, and their bytes: the least recently used go first. */
const MAX_ENTRIES = 1000;
const MAX_BYTES = 64 * 1024 * 1024;

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
  bytes: number;
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
  /** In insertion order, a read moving an entry to the end: the first is the least recently used. */
  private readonly entries = new Map<string, Entry>();
  /** The builds going on, by key: concurrent requests for one (a first visit included) wait for the one build. */
  private readonly building = new Map<string, Promise<Rendering<unknown> | null>>();
  private bytes = 0;

  constructor(private readonly bus: RealtimeBus) {}

  onModuleInit() {
    this.bus.subscribeInternal('status-changed', (envelope) => {
      const { pages = [], access = false } = (envelope.data as { pages?: number[]; access?: boolean } | null) ?? {};
      const changed = new Set(pages);
      for (const [key, entry] of this.entries) {
        if (entry.pageId !== null && !changed.has(entry.pageId)) continue;
        // who may read it changed (made private, deleted): no stale copy may outlive that, even with the database away
        if (access) this.forget(key);
        else entry.freshUntil = 0;
      }
    });
  }

  async get<T>(key: string, build: () => Promise<Built<T> | null>, now = Date.now()): Promise<Rendering<T> | null> {
    const entry = this.entries.get(key);
    if (entry && now < entry.freshUntil) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.rendering as Rendering<T>;
    }
    const going = this.building.get(key);
    if (going) return (await going) as Rendering<T> | null;
    const pending = this.build(key, build, entry);
    this.building.set(key, pending as Promise<Rendering<unknown> | null>);
    try {
      return await pending;
    } finally {
      this.building.delete(key);
    }
  }

  private forget(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
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
    this.forget(key);
    if (!built) return null;
    const bytes = built.bytes ?? (typeof built.value === 'string' ? built.value : JSON.stringify(built.value));
    const rendering: Rendering<T> = {
      value: built.value,
      etag: `"${createHash('sha1').update(bytes).digest('base64url')}"`,
      at: Date.now(),
      stale: false,
    };
    // what it holds, roughly: its text twice (the value, and the data it was built from)
    const size = 2 * bytes.length;
    while (this.entries.size > 0 && (this.entries.size >= MAX_ENTRIES || this.bytes + size > MAX_BYTES)) {
      this.forget(this.entries.keys().next().value!);
    }
    this.entries.set(key, { rendering, pageId: built.pageId, freshUntil: Date.now() + FRESH_MS, bytes: size });
    this.bytes += size;
    return rendering;
  }
}
