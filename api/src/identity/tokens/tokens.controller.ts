import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { z } from 'zod';
import { createTokenSchema, tokenIdSchema } from '@cbh/contracts';
import { RequirePermission, SessionOnly, ZodPipe } from '../../platform';
import type { AppRequest } from '../auth/session-user';
import { TokensService } from './tokens.service';

/** An account's own personal access tokens, for holders of api_access. */
@Controller('tokens')
@RequirePermission('api_access')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Post()
  @SessionOnly('Creating access tokens')
  create(@Req() req: AppRequest, @Body(new ZodPipe(createTokenSchema)) body: z.infer<typeof createTokenSchema>) {
    return this.tokens.create(req, body);
  }

  @Get()
  @SessionOnly('Listing access tokens')
  list(@Req() req: AppRequest) {
    return this.tokens.list(req.user!.id);
  }

  /** A token may revoke its owner's tokens, itself included: revoking only takes power away. */
  @Delete(':id')
  @HttpCode(204)
  async revoke(@Req() req: AppRequest, @Param('id', new ZodPipe(tokenIdSchema, 'id')) id: string) {
    await this.tokens.revoke(req, id);
  }
}
