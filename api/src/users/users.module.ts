import { Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { AccountBootstrap } from './bootstrap.service';
import { InvitationsController } from './invitations.controller';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({
  imports: [MailModule],
  controllers: [UsersController, InvitationsController],
  providers: [UsersService, AccountBootstrap],
})
export class UsersModule {}
