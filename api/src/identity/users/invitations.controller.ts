import { Controller, Get, HttpException, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { acceptInvitationSchema } from '@cbh/contracts';
import { isFormPost, Public, seeOther, SessionOnly } from '../../platform';
import { loginPage } from '../auth/login-page';
import type { AppRequest } from '../auth/session-user';
import { signIn } from '../auth/session-reader.service';
import { UsersService } from './users.service';

/** The link in an invitation e-mail: a page to set a password, which activates the account and signs in. */
@Controller('invitations')
@Public()
@SessionOnly('Accepting an invitation')
export class InvitationsController {
  constructor(private readonly users: UsersService) {}

  @Get(':token')
  async page(@Param('token') token: string, @Res() res: FastifyReply) {
    res.header('Cache-Control', 'no-store');
    try {
      await this.users.openInvitation(token);
      res
        .type('text/html; charset=utf-8')
        .send(loginPage({ title: 'Set your password', action: `/api/invitations/${encodeURIComponent(token)}`, fields: 'set-password' }));
    } catch (error) {
      if (!(error instanceof HttpException)) throw error;
      res
        .status(error.getStatus())
        .type('text/html; charset=utf-8')
        .send(loginPage({ title: 'Invitation', error: error.message, action: '/api/login' }));
    }
  }

  @Post(':token')
  async accept(@Param('token') token: string, @Req() req: AppRequest, @Res() res: FastifyReply) {
    const isForm = isFormPost(req);
    const parsed = acceptInvitationSchema.safeParse(req.body ?? {});
    const form = (status: number, error: string) =>
      res
        .status(status)
        .type('text/html; charset=utf-8')
        .send(
          loginPage({ title: 'Set your password', error, action: `/api/invitations/${encodeURIComponent(token)}`, fields: 'set-password' }),
        );
    if (!parsed.success) {
      const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      if (isForm) return form(400, message);
      throw new HttpException(message, 400);
    }
    let user;
    try {
      user = await this.users.acceptInvitation(req, token, parsed.data);
    } catch (error) {
      if (isForm && error instanceof HttpException) return form(error.getStatus(), error.message);
      throw error;
    }
    await signIn(req, user);
    if (isForm) return seeOther(res, '/');
    res.status(200).send({ id: user.id, email: user.email });
  }
}
