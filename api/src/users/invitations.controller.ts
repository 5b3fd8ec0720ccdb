import { Controller, Get, HttpException, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { acceptInvitationSchema } from '@cbh/contracts';
import { Public } from '../auth/access.decorator';
import { loginPage } from '../auth/login-page';
import type { AppRequest } from '../auth/session-user';
import { UsersService } from './users.service';

/** The link in an invitation e-mail: a page to set a password, which activates the account and signs in. */
@Controller('invitations')
@Public()
export class InvitationsController {
  constructor(private readonly users: UsersService) {}

  @Get(':token')
  async page(@Param('token') token: string, @Res() res: Response) {
    res.setHeader('Cache-Control', 'no-store');
    try {
      await this.users.openInvitation(token);
      res
        .type('html')
        .send(loginPage({ title: 'Set your password', action: `/api/invitations/${encodeURIComponent(token)}`, fields: 'set-password' }));
    } catch (error) {
      if (!(error instanceof HttpException)) throw error;
      res
        .status(error.getStatus())
        .type('html')
        .send(loginPage({ title: 'Invitation', error: error.message, action: '/api/login' }));
    }
  }

  @Post(':token')
  async accept(@Param('token') token: string, @Req() req: AppRequest, @Res() res: Response) {
    const isForm = Boolean(req.is('application/x-www-form-urlencoded'));
    const parsed = acceptInvitationSchema.safeParse(req.body ?? {});
    const form = (status: number, error: string) =>
      res
        .status(status)
        .type('html')
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
    await new Promise<void>((resolve, reject) => req.logIn(user, (error) => (error ? reject(error) : resolve())));
    if (isForm) return res.redirect(303, '/');
    res.status(200).json({ id: user.id, email: user.email });
  }
}
