import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { seeOther } from '../common/http';
import type { z } from 'zod';
import { elevateSchema } from '@cbh/contracts';
import { ElevationAccount, Public } from '../auth/access.decorator';
import type { AppRequest } from '../auth/session-user';
import { ZodPipe } from '../common/validation/zod.pipe';
import { ElevationService } from './elevation.service';

@Controller('auth')
export class ElevationController {
  constructor(private readonly elevation: ElevationService) {}

  /** Only the ELEVATION_EMAIL account, while not yet super_admin; 5 failures per 15 minutes at most. */
  @Post('elevate-privileges')
  @ElevationAccount()
  @HttpCode(200)
  async elevate(@Req() req: AppRequest, @Body(new ZodPipe(elevateSchema)) body: z.infer<typeof elevateSchema>) {
    const result =
      body.method === 'email_verification'
        ? await this.elevation.requestEmailLink(req)
        : body.method === 'master_key'
          ? await this.elevation.withMasterKey(req, body.masterKey)
          : await this.elevation.withOtp(req, body.code);
    return result.status === 'elevated'
      ? { success: true, message: 'You now have super admin access.' }
      : { success: false, pending: true, message: result.message };
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
