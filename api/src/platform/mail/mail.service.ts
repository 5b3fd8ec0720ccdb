import { Inject, Injectable, Logger } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '../config/config';
import type { Mail } from './mail';
import { OutboxRepository } from './outbox.repository';

/** What the outbox keeps of a text: everything but its secrets. */
export function withoutSecrets(text: string, secrets: readonly string[] = []): string {
  return secrets.reduce((kept, secret) => (secret ? kept.split(secret).join('[removed from the outbox]') : kept), text);
}

/**
 * Sends e-mail through SMTP_URL. Every mail is first written to the outbox table (and marked sent once the
 * SMTP server took it); without SMTP_URL it stays there and goes to the log, so nothing is lost. The outbox keeps
 * no live token: a link's secret is left out of the stored text, so the table cannot be read for working links.
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger(MailService.name);
  private readonly transport: Transporter | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: OutboxRepository,
  ) {
    // Ten seconds for each step (nodemailer waits minutes by default): a notification's try holds its delivery's
    // lease for 15 s, and a mail server that hangs past it must fail the try rather than let a second replica send.
    this.transport = config.SMTP_URL
      ? nodemailer.createTransport({ url: config.SMTP_URL, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 10_000 })
      : null;
  }

  /** Whether mail leaves the machine (SMTP_URL is set); without it send() only keeps it in the outbox. */
  get configured(): boolean {
    return this.transport !== null;
  }

  async send(mail: Mail): Promise<void> {
    const { secrets, headers, ...message } = mail;
    const id = await this.outbox.add({ ...message, text: withoutSecrets(message.text, secrets) });
    if (!this.transport) {
      this.logger.log(`E-mail to ${mail.to} (no SMTP_URL, kept in the outbox): ${mail.subject}\n${mail.text}`);
      return;
    }
    await this.transport.sendMail({
      from: `Circuit Breaker Hub <no-reply@${new URL(this.config.SMTP_URL!).hostname}>`,
      ...message,
      headers,
    });
    await this.outbox.markSent(id);
  }
}
