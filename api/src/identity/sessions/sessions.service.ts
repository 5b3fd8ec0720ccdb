import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { describeUserAgent, type EndedSessionsView, type SessionView } from '@cbh/contracts';
import { AuditService } from '../audit/audit.service';
import { sessionKey } from '../auth/session-key';
import { SessionReader, signOut } from '../auth/session-reader.service';
import { PgSessionStore } from '../auth/session-store';
import { SessionsRepository } from '../auth/sessions.repository';
import type { AppRequest } from '../auth/session-user';
import { RealtimeBus } from '../../platform';
import { TokensService } from '../tokens/tokens.service';

/** A person's own sessions: listed, and ended one by one or all but the current one. */
@Injectable()
export class SessionsService {
  private readonly logger = new Logger(SessionsService.name);

  constructor(
    private readonly repository: SessionsRepository,
    private readonly store: PgSessionStore,
    private readonly reader: SessionReader,
    private readonly bus: RealtimeBus,
    private readonly audit: AuditService,
    private readonly tokens: TokensService,
    private readonly dataSource: DataSource,
  ) {}

  /** The caller's live sessions, newest sign-in first, the one asking marked current. */
  async list(req: AppRequest): Promise<SessionView[]> {
    const current = this.reader.sessionIdOf(req.raw);
    const rows = await this.repository.listOfUser(req.user!.id, this.store.idleCutoffMs());
    return rows.map((row) => ({
      id: sessionKey(row.sid),
      current: row.sid === current,
      ...describeUserAgent(row.userAgent),
      address: row.address,
      signedInAt: row.signedInAt.toISOString(),
      lastSeenAt: new Date(this.store.lastSeenAt(row.sid, row.lastSeenAt.getTime())).toISOString(),
      expiresAt: row.expiresAt.toISOString(),
    }));
  }

  /**
   * Ends one of the caller's sessions, named by its key; another account's, or an unknown key, is a 404. Ending the
   * current one signs it out: `signedOut` tells the controller to clear the cookie.
   */
  async end(req: AppRequest, key: string): Promise<{ signedOut: boolean }> {
    const user = req.user!;
    const sid = (await this.repository.sidsOfUser(user.id)).find((candidate) => sessionKey(candidate) === key);
    if (!sid) throw new NotFoundException('No such session');
    const current = sid === this.reader.sessionIdOf(req.raw);
    if (current) await signOut(req);
    else if ((await this.repository.deleteOfUser(user.id, [sid])).length === 0) throw new NotFoundException('No such session');
    await this.announceEnded([sid]);
    await this.audit.record(req, {
      action: 'session.end',
      targetType: 'user',
      targetId: user.id,
      actor: user,
      after: { session: key, current },
    });
    return { signedOut: current };
  }

  /**
   * Ends every session of the caller but the one asking, and revokes the caller's access tokens ("sign out everywhere
   * else"): whoever took a session may have made a token with it, which would outlive the session.
   */
  async endOthers(req: AppRequest): Promise<EndedSessionsView> {
    const user = req.user!;
    const current = this.reader.sessionIdOf(req.raw);
    const others = (await this.repository.sidsOfUser(user.id)).filter((sid) => sid !== current);
    const ended = await this.repository.deleteOfUser(user.id, others);
    const revoked = await this.tokens.revokeAllOf(this.dataSource.manager, user.id);
    await this.announceEnded(ended);
    await this.tokens.announceRevoked(revoked.map((token) => token.id));
    await this.audit.record(req, {
      action: 'session.end-others',
      targetType: 'user',
      targetId: user.id,
      after: { ended: ended.length, revokedTokens: revoked.length },
    });
    return { ended: ended.length, revokedTokens: revoked.length };
  }

  /**
   * Every replica forgets these ended sessions and closes their sockets now (as at sign-out), this one at once even
   * if the message cannot go out.
   */
  async announceEnded(sids: readonly string[]): Promise<void> {
    for (const sid of sids) {
      const key = sessionKey(sid);
      this.store.forgetEnded(key);
      await this.bus.publishInternal('session-ended', key).catch((error: Error) => {
        // the other replicas find out at their next check of the sessions table (within a minute)
        this.logger.warn(`ended session not announced: ${error.message}`);
      });
    }
  }
}
