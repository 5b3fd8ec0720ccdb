import { Module } from '@nestjs/common';
import { MailService } from './mail.service';

/** Outgoing mail: imported by the two features that send it (invitations, elevation links). */
@Module({ providers: [MailService], exports: [MailService] })
export class MailModule {}
