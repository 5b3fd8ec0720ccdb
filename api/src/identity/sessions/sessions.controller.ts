import { Controller, Delete, Get, HttpCode, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { sessionIdSchema } from '@cbh/contracts';
import { SessionOnly, SignedIn, ZodPipe } from '../../platform';
import { CLEARED_SESSION_COOKIE } from '../auth/session-store';
import type { AppRequest } from '../auth/session-user';
import { SessionsService } from './sessions.service';

/** One's own sessions. A token has none: these need a person's session. */
@Controller('sessions')
@SignedIn()
@SessionOnly('Managing sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  list(@Req() req: AppRequest) {
    return this.sessions.list(req);
  }

  /** "Sign out everywhere else". */
  @Delete('others')
  endOthers(@Req() req: AppRequest) {
    return this.sessions.endOthers(req);
  }

  @Delete(':id')
  @HttpCode(204)
  async end(
    @Req() req: AppRequest,
    @Res({ passthrough: true }) res: FastifyReply,
    @Param('id', new ZodPipe(sessionIdSchema, 'id')) id: string,
  ) {
    const { signedOut } = await this.sessions.end(req, id);
    if (signedOut) res.header('Set-Cookie', CLEARED_SESSION_COOKIE);
  }
}
