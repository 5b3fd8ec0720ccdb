import { Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public, SessionOnly, SignedIn } from '../platform';
import type { AppRequest } from '../identity';
import { ShiftFeedsService } from './shift-feeds.service';

/** The signed-in person's own calendar address: made (or made anew, revoking the old) and revoked in a session. */
@Controller('account/on-call-feed')
@SignedIn()
@SessionOnly('Making a calendar address')
export class ShiftFeedAddressController {
  constructor(private readonly feeds: ShiftFeedsService) {}

  @Post()
  renew(@Req() req: AppRequest) {
    return this.feeds.renew(req.user!.id);
  }

  @Delete()
  @HttpCode(204)
  async revoke(@Req() req: AppRequest) {
    await this.feeds.revoke(req.user!.id);
  }
}

/** The calendar itself, for a calendar application: its secret address is its only credential. */
@Controller('public/on-call')
@Public()
export class ShiftFeedController {
  constructor(private readonly feeds: ShiftFeedsService) {}

  @Get(':file')
  async feed(@Param('file') file: string, @Res() reply: FastifyReply) {
    const token = /^(ocf_[A-Za-z0-9_-]{32})\.ics$/.exec(file)?.[1];
    const calendar = token ? await this.feeds.calendar(token) : null;
    if (!calendar) throw new NotFoundException('No such calendar: the address was revoked or never made');
    return reply.header('Content-Type', 'text/calendar; charset=utf-8').header('Cache-Control', 'private, max-age=300').send(calendar);
  }
}
