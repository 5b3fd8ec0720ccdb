import { Module } from '@nestjs/common';
import { MailModule } from '../../platform';
import { SessionsModule } from '../sessions/sessions.module';
import { AccountBootstrap } from './bootstrap.service';
import { InvitationsController } from './invitations.controller';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({
  imports: [MailModule, SessionsModule],
  controllers: [UsersController, InvitationsController],
  providers: [UsersService, AccountBootstrap],
})
export class UsersModule {}
