import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import type { z } from 'zod';
import {
  createServiceAccountSchema,
  createTokenSchema,
  serviceAccountIdSchema,
  tokenIdSchema,
  updateServiceAccountSchema,
} from '@cbh/contracts';
import { RequirePermission, SessionOnly, ZodPipe } from '../../platform';
import type { AppRequest } from '../auth/session-user';
import { ServiceAccountsService } from './service-accounts.service';

const serviceAccountId = new ZodPipe(serviceAccountIdSchema, 'id');

/** Accounts for machines and their access tokens, for user managers. */
@Controller('service-accounts')
@RequirePermission('user_management')
export class ServiceAccountsController {
  constructor(private readonly serviceAccounts: ServiceAccountsService) {}

  @Get()
  list() {
    return this.serviceAccounts.list();
  }

  @Post()
  create(@Req() req: AppRequest, @Body(new ZodPipe(createServiceAccountSchema)) body: z.infer<typeof createServiceAccountSchema>) {
    return this.serviceAccounts.create(req, body);
  }

  @Patch(':id')
  update(
    @Req() req: AppRequest,
    @Param('id', serviceAccountId) id: string,
    @Body(new ZodPipe(updateServiceAccountSchema)) body: z.infer<typeof updateServiceAccountSchema>,
  ) {
    return this.serviceAccounts.update(req, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Req() req: AppRequest, @Param('id', serviceAccountId) id: string) {
    await this.serviceAccounts.remove(req, id);
  }

  /** Like a personal token, made in a person's session: a stolen token must not mint more tokens. */
  @Post(':id/tokens')
  @SessionOnly('Creating access tokens')
  createToken(
    @Req() req: AppRequest,
    @Param('id', serviceAccountId) id: string,
    @Body(new ZodPipe(createTokenSchema)) body: z.infer<typeof createTokenSchema>,
  ) {
    return this.serviceAccounts.createToken(req, id, body);
  }

  @Get(':id/tokens')
  listTokens(@Param('id', serviceAccountId) id: string) {
    return this.serviceAccounts.listTokens(id);
  }

  @Delete(':id/tokens/:tokenId')
  @HttpCode(204)
  async revokeToken(
    @Req() req: AppRequest,
    @Param('id', serviceAccountId) id: string,
    @Param('tokenId', new ZodPipe(tokenIdSchema, 'tokenId')) tokenId: string,
  ) {
    await this.serviceAccounts.revokeToken(req, id, tokenId);
  }
}
