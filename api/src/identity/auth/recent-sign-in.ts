import { ForbiddenException, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppRequest } from './session-user';
import { SessionEntity } from './entities/session.entity';

/**
 * Asks for a recent sign-in before something that hurts (a drill injects faults into real traffic): a session must
 * have been signed in within `minutes`, else 403 with `message` (the screen offers to sign in again). A token is a
 * credential made on purpose for automation (a CI job running a drill), and passes.
 */
@Injectable()
export class RecentSignIn {
  constructor(private readonly dataSource: DataSource) {}

  async require(req: AppRequest, minutes: number, message: string): Promise<void> {
    if (req.apiToken) return;
    const session = req.sessionID
      ? await this.dataSource
          .getRepository(SessionEntity)
          .findOne({ where: { sid: req.sessionID }, select: { sid: true, signedInAt: true } })
      : null;
    if (!session || Date.now() - session.signedInAt.getTime() > minutes * 60_000) throw new ForbiddenException(message);
  }
}
