import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { releaseFilesPath, REMOTE_MANIFEST } from '@cbh/contracts';
import { APP_CONFIG, type AppConfig, newestRead, RealtimeBus, SecretBox } from '../platform';
import type { SessionUser } from '../identity';
import { RemoteReleaseEntity } from './entities/remote-release.entity';
import { RemoteVersionEntity } from './entities/remote-version.entity';

/** A visitor's side of each remote's canary: 0 to 99, the same for the same visitor and remote. */
export function bucketOf(visitor: string, remote: string): number {
  return createHash('sha256').update(`${visitor}:${remote}`).digest().readUInt32BE(0) % 100;
}

/**
 * Who a request is for the canary's sides: a signed-in person is their account, whatever visitor cookie they hold
 * (dropping the cookie must not re-roll their side, since their loads are counted per account); a visitor signed out
 * is their sealed visitor cookie.
 */
export function sideOf(user: Pick<SessionUser, 'id'> | undefined, visitor: string | null): string | null {
  return user ? `account:${user.id}` : visitor;
}

/** How long a pin lasts: sealed into the pins cookie, so a copied cookie ends with it whatever its Max-Age. */
export const PIN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** A remote's release as every replica keeps it: the versions served to everyone, and the canary's share. */
interface RemoteState {
  live: number | null;
  previous: number | null;
  canary: number | null;
  percent: number;
  canaryStartedAt: Date | null;
}

/** A version's files, path → SHA-256, with the remote it belongs to. */
export interface VersionFiles {
  remote: string;
  files: Record<string, string>;
}

const VISITOR = /^[A-Za-z0-9_-]{22}$/;

/**
 * What every replica knows of the releases: which version of each remote is live, previous and canary — read at
 * start and again whenever any replica changes it (releases-changed over LISTEN/NOTIFY) — and so which version each
 * visitor is given. The visitor cookie and the pins cookie are sealed by the hub, so a visitor can neither choose
 * their side of a canary nor claim a version they were not given.
 */
@Injectable()
export class ReleaseState implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(ReleaseState.name);
  private state = new Map<string, RemoteState>();
  private readonly pins: SecretBox;
  private readonly visitors: SecretBox;
  /** The files of the versions served lately, by version id (dropped at each reload: a deleted one goes). */
  private versionFiles = new Map<number, VersionFiles>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: RealtimeBus,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.pins = new SecretBox(config.SESSION_SECRET, 'release-pins');
    this.visitors = new SecretBox(config.SESSION_SECRET, 'release-visitor');
  }

  onModuleInit() {
    this.bus.whenTold(['releases-changed'], () => this.reload());
  }

  async onApplicationBootstrap() {
    await this.reload();
  }

  /** Which version of each remote is live, previous and canary, as the database has it now. */
  async reload(): Promise<void> {
    try {
      await this.readNewest();
    } catch (error) {
      this.logger.warn(`live releases not read: ${(error as Error).message}`);
    }
  }

  /** The releases and their versions' files read; kept unless a read started later was kept first. */
  private readonly readNewest = newestRead(
    async () => {
      const rows = await this.dataSource.getRepository(RemoteReleaseEntity).find();
      const served = rows.flatMap((row) => [row.liveVersionId, row.previousVersionId, row.canaryVersionId]).filter((id) => id !== null);
      const versions = served.length
        ? await this.dataSource
            .getRepository(RemoteVersionEntity)
            .find({ where: { id: In(served) }, select: { id: true, remote: true, files: true } })
        : [];
      return { rows, versions };
    },
    ({ rows, versions }) => {
      this.state = new Map(
        rows.map((row) => [
          row.remote,
          {
            live: row.liveVersionId,
            previous: row.previousVersionId,
            canary: row.canaryVersionId,
            percent: row.canaryPercent,
            canaryStartedAt: row.canaryStartedAt,
          },
        ]),
      );
      this.versionFiles = new Map(versions.map((version) => [version.id, { remote: version.remote, files: version.files }]));
    },
  );

  /** The canary of a remote as this replica knows it. */
  canaryOf(remote: string): { versionId: number; startedAt: Date | null } | null {
    const state = this.state.get(remote);
    return state?.canary ? { versionId: state.canary, startedAt: state.canaryStartedAt } : null;
  }

  /**
   * The version a visitor is given of a remote: one they pinned, else the canary when their bucket falls in its
   * share, else the live version; null for the deployed folder's. A visitor's bucket comes from their side (sideOf:
   * their account, or their visitor id signed out) and the remote, so it never changes: a person stays on one side
   * of a canary across navigations, and raising its share only moves people onto it.
   */
  assigned(remote: string, visitor: string | null, pins: Record<string, number>): number | null {
    if (pins[remote] !== undefined) return pins[remote];
    const state = this.state.get(remote);
    if (!state) return null;
    if (state.canary !== null && visitor !== null && bucketOf(visitor, remote) < state.percent) return state.canary;
    return state.live;
  }

  /** The entry /remotes.json gives one visitor for a remote; null for the deployed folder's. */
  entryFor(remote: string, visitor: string | null, pins: Record<string, number>): string | null {
    const versionId = this.assigned(remote, visitor, pins);
    return versionId === null ? null : `${releaseFilesPath(remote, versionId)}${REMOTE_MANIFEST}`;
  }

  /**
   * Whether a version's files are served to this browser: the live, previous (pages loaded before a promote still
   * fetch its chunks) or canary version of that remote, or one this browser pinned. No other version is served, so
   * an upload reaches nobody until someone who may release makes it live.
   */
  servable(remote: string, versionId: number, pins: Record<string, number>): 'everyone' | 'pinned' | null {
    const state = this.state.get(remote);
    if (state && [state.live, state.previous, state.canary].includes(versionId)) return 'everyone';
    return pins[remote] === versionId ? 'pinned' : null;
  }

  /** A version's files, from this replica's memory or the store; null when it is not that remote's. */
  async filesOf(remote: string, versionId: number): Promise<Record<string, string> | null> {
    let known = this.versionFiles.get(versionId);
    if (!known) {
      const version = await this.dataSource
        .getRepository(RemoteVersionEntity)
        .findOne({ where: { id: versionId }, select: { id: true, remote: true, files: true } });
      if (!version) return null;
      this.versionFiles.set(versionId, (known = { remote: version.remote, files: version.files }));
    }
    return known.remote === remote ? known.files : null;
  }

  /**
   * The versions a sealed pins cookie names, for the account that pinned them while it still holds system_admin and
   * before the pin's expiry (both sealed in): none for a cookie the hub did not seal, for another browser's copy of
   * it, signed out, or once the account lost system_admin — a pin shows a version nobody promoted, so it is only
   * ever the releaser's own preview.
   */
  pinsOf(cookie: string | undefined, user: SessionUser | undefined): Record<string, number> {
    if (!cookie || !user?.permissions.includes('system_admin')) return {};
    try {
      const opened = this.pins.open(decodeURIComponent(cookie));
      const sealed = opened ? (JSON.parse(opened) as { account?: unknown; expires?: unknown; pins?: Record<string, unknown> }) : {};
      if (sealed.account !== user.id || typeof sealed.expires !== 'number' || sealed.expires <= Date.now()) return {};
      return Object.fromEntries(Object.entries(sealed.pins ?? {}).filter((entry): entry is [string, number] => Number.isInteger(entry[1])));
    } catch {
      return {};
    }
  }

  /** A pins cookie value for one account, ending PIN_LIFETIME_MS from now. */
  sealPins(pins: Record<string, number>, accountId: string): string {
    return this.pins.seal(JSON.stringify({ account: accountId, expires: Date.now() + PIN_LIFETIME_MS, pins }));
  }

  /** The visitor id a sealed visitor cookie holds; null for one the hub did not seal (a chosen id is none). */
  visitorOf(cookie: string | undefined): string | null {
    if (!cookie) return null;
    try {
      const opened = this.visitors.open(decodeURIComponent(cookie));
      return opened && VISITOR.test(opened) ? opened : null;
    } catch {
      return null;
    }
  }

  /** A new random visitor id and its cookie value, sealed. */
  newVisitor(): { visitor: string; cookie: string } {
    const visitor = randomBytes(16).toString('base64url');
    return { visitor, cookie: encodeURIComponent(this.visitors.seal(visitor)) };
  }
}
