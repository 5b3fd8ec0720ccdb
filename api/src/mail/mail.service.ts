import { Inject, Injectable, Logger } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { OutboxRepository } from './outbox.repository';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends e-mail through SMTP_URL. Every mail is first written to the outbox table (and marked sent once the
 * SMTP server took it); without SMTP_URL it stays there and goes to the log, so nothing is lost.
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger(MailService.name);
  private readonly transport: Transporter | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: OutboxRepository,
  ) {
    this.transport = config.SMTP_URL ? nodemailer.createTransport(config.SMTP_URL) : null;
  }

  async send(mail: Mail): Promise<void> {
    const id = await this.outbox.add(mail);
    if (!this.transport) {
      this.logger.log(`E-mail to ${mail.to} (no SMTP_URL, kept in the outbox): ${mail.subject}\n${mail.text}`);
      return;
    }
    await this.transport.sendMail({ from: `Circuit Breaker Hub <no-reply@${new URL(this.config.SMTP_URL!).hostname}>`, ...mail });
    await this.outbox.markSent(id);
  }
}
