import { Module } from '@nestjs/common';
import { MailService } from './mail.service';
import { OutboxRepository } from './outbox.repository';

/** Outgoing mail: imported by the two features that send it (invitations, elevation links). */
@Module({ providers: [MailService, OutboxRepository], exports: [MailService] })
export class MailModule {}
