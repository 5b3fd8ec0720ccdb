import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ElevationAccount, Public, seeOther, SessionOnly, ZodPipe } from '../../platform';
import type { z } from 'zod';
import { elevateSchema } from '@cbh/contracts';
import type { AppRequest } from '../auth/session-user';
import { type ElevationResult, ElevationService } from './elevation.service';

@Controller('auth')
@SessionOnly('Elevating privileges')
export class ElevationController {
  constructor(private readonly elevation: ElevationService) {}

  /**
   * Only the ELEVATION_EMAIL account, while not yet super_admin; 5 failures per 15 minutes at most, a minute between
   * two link e-mails. A 429 says in Retry-After when to try again.
   */
  @Post('elevate-privileges')
  @ElevationAccount()
  @HttpCode(200)
  async elevate(@Req() req: AppRequest, @Body(new ZodPipe(elevateSchema)) body: z.infer<typeof elevateSchema>) {
    const result = await this.attempt(req, body);
    return result.status === 'elevated'
      ? { success: true, message: 'You now have super admin access.' }
      : { success: false, pending: true, message: result.message };
  }

  private attempt(req: AppRequest, body: z.infer<typeof elevateSchema>): Promise<ElevationResult> {
    if (body.method === 'email_verification') return this.elevation.requestEmailLink(req);
    if (body.method === 'master_key') return this.elevation.withMasterKey(req, body.masterKey);
    return this.elevation.withOtp(req, body.code);
  }

  @Get('get-otp')
  @ElevationAccount()
  otp(@Req() req: AppRequest) {
    return this.elevation.currentOtp(req.user!);
  }

  /** The link from the verification e-mail. */
  @Get('elevate/verify/:token')
  @Public()
  async verify(@Req() req: AppRequest, @Param('token') token: string, @Res() res: FastifyReply) {
    await this.elevation.confirmEmailLink(req, token);
    seeOther(res, '/');
  }
}
