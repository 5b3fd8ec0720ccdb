import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  inviteUserSchema,
  TOTAL_COUNT_HEADER,
  usersQuerySchema,
  updateUserPermissionsSchema,
  updateUserSchema,
  updateUserStatusSchema,
  userIdSchema,
} from '@cbh/contracts';
import { RequirePermission, ZodPipe } from '../../platform';
import type { AppRequest } from '../auth/session-user';
import { UsersService } from './users.service';

const userId = new ZodPipe(userIdSchema, 'id');

@Controller()
@RequirePermission('user_management')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  /** A page of accounts (an array, as ever), how many match in the total-count header. */
  @Get('users')
  async list(@Query(new ZodPipe(usersQuerySchema)) query: z.infer<typeof usersQuerySchema>, @Res({ passthrough: true }) res: FastifyReply) {
    const { users, total } = await this.users.list(query);
    res.header(TOTAL_COUNT_HEADER, String(total));
    return users;
  }

  @Get('users/summary')
  summary() {
    return this.users.summary();
  }

  @Post('users/invite')
  invite(@Req() req: AppRequest, @Body(new ZodPipe(inviteUserSchema)) body: z.infer<typeof inviteUserSchema>) {
    return this.users.invite(req, body.email, body.role);
  }

  @Patch('users/:id')
  update(
    @Req() req: AppRequest,
    @Param('id', userId) id: string,
    @Body(new ZodPipe(updateUserSchema)) body: z.infer<typeof updateUserSchema>,
  ) {
    return this.users.updateRole(req, id, body.role, body.permissions);
  }

  @Patch('users/:id/status')
  status(
    @Req() req: AppRequest,
    @Param('id', userId) id: string,
    @Body(new ZodPipe(updateUserStatusSchema)) body: z.infer<typeof updateUserStatusSchema>,
  ) {
    return this.users.updateStatus(req, id, body.isActive);
  }

  @Patch('users/:id/permissions')
  permissions(
    @Req() req: AppRequest,
    @Param('id', userId) id: string,
    @Body(new ZodPipe(updateUserPermissionsSchema)) body: z.infer<typeof updateUserPermissionsSchema>,
  ) {
    return this.users.updatePermissions(req, id, body.permissions);
  }

  /** Signs the account out everywhere, for instance after its device was lost. */
  @Delete('users/:id/sessions')
  endSessions(@Req() req: AppRequest, @Param('id', userId) id: string) {
    return this.users.endSessions(req, id);
  }

  @Delete('users/:id')
  @HttpCode(204)
  async remove(@Req() req: AppRequest, @Param('id', userId) id: string) {
    await this.users.remove(req, id);
  }
}
