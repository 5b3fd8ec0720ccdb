import { createHmac } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DELIVERY_TIMEOUT_MS, isRetryableStatus, WEBHOOK_HEADERS, type WebhookBody } from '@cbh/contracts';
import { APP_CONFIG, type AppConfig, MailService, OutboundRefusedError, outboundRequest } from '../../platform';
import type { ChannelTarget, OutgoingNotification, SendOutcome } from './channel-sender.types';
import { describeNotification, discordPayload, emailContent, slackPayload } from './messages';

export const EMAIL_NOT_CONFIGURED = 'E-mail is not configured (SMTP_URL is not set); the message is kept in the mail outbox';

/** How much of a receiver's answer goes into the error: enough to read its complaint, short enough for a log line. */
const ERROR_BODY_CHARS = 200;

/**
 * The X-CBH-Signature value of a webhook delivery: `sha256=` and the hex HMAC-SHA256, keyed with the channel's
 * secret, of "<timestamp>.<body>". The timestamp is inside what is signed, so a receiver that refuses old
 * timestamps also refuses replays.
 */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

type Result = Omit<SendOutcome, 'durationMs'>;

const final = (error: string): Result => ({ ok: false, statusCode: null, error, retryable: false });

/** A failed call's reason; Node's happy-eyeballs connect fails with an AggregateError whose own message is empty. */
function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return error.errors.map((each) => String((each as Error).message)).join('; ');
  return error instanceof Error ? error.message : String(error);
}

/**
 * Sends one notification to one channel, once: retries and the delivery log are the caller's. Every URL passes the
 * outbound-address guard; errors name the host at most, never the URL's path or query (they hold the credentials
 * of Slack and Discord webhooks).
 */
@Injectable()
export class ChannelSender {
  private readonly logger = new Logger('Notifications');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: MailService,
  ) {}

  /** One try; timeoutMs (the contract's DELIVERY_TIMEOUT_MS unless a test shortens it) bounds a whole HTTP call. */
  async send(
    target: ChannelTarget,
    notification: OutgoingNotification,
    { timeoutMs = DELIVERY_TIMEOUT_MS }: { timeoutMs?: number } = {},
  ): Promise<SendOutcome> {
    const started = performance.now();
    const result = await this.sendOnce(target, notification, timeoutMs);
    return { ...result, durationMs: Math.round(performance.now() - started) };
  }

  private sendOnce(target: ChannelTarget, notification: OutgoingNotification, timeoutMs: number): Promise<Result> {
    switch (target.type) {
      case 'email':
        return this.email(target, notification);
      case 'webhook':
        return this.webhook(target, notification, timeoutMs);
      case 'slack':
        return this.post(target, JSON.stringify(slackPayload(describeNotification(notification))), {}, timeoutMs);
      case 'discord': {
        const payload = discordPayload(describeNotification(notification), notification);
        return this.post(target, JSON.stringify(payload), {}, timeoutMs);
      }
      case 'log':
        return Promise.resolve(this.log(notification));
    }
  }

  /** One line of the API's log, in the words an e-mail would carry: delivered once it is written. */
  private log(notification: OutgoingNotification): Result {
    const message = describeNotification(notification);
    this.logger.log(
      `${notification.type} ${notification.deliveryId}: ${message.title} — ${message.happened} (${message.when}) ${message.url}`,
    );
    return { ok: true, statusCode: null, error: null, retryable: false };
  }

  private webhook(target: ChannelTarget, notification: OutgoingNotification, timeoutMs: number): Promise<Result> {
    const { deliveryId, type, occurredAt, data } = notification;
    const body = JSON.stringify({ id: deliveryId, type, occurredAt, data } satisfies WebhookBody);
    // the time of this try, not of the event: a retry an hour later must still pass the receiver's replay window
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      [WEBHOOK_HEADERS.event]: type,
      [WEBHOOK_HEADERS.delivery]: deliveryId,
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    };
    if (target.secret) headers[WEBHOOK_HEADERS.signature] = signWebhook(target.secret, timestamp, body);
    return this.post(target, body, headers, timeoutMs);
  }

  /** A JSON POST to the channel's URL: 2xx delivered; 5xx, 408, 429, timeouts and failed connections worth a retry. */
  private async post(target: ChannelTarget, body: string, headers: Record<string, string>, timeoutMs: number): Promise<Result> {
    const url = this.urlOf(target);
    if (typeof url === 'string') return final(url);
    const { allowPrivate } = this.config.ALLOW_PRIVATE_TARGETS;
    try {
      const answer = await outboundRequest(url, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/json', ...headers },
        timeoutMs,
        allowPrivate,
        // plain http only to the private addresses allowed: a signature or a chat URL never crosses the internet in clear
        allowPublic: url.protocol === 'https:',
      });
      if (answer.status >= 200 && answer.status < 300) return { ok: true, statusCode: answer.status, error: null, retryable: false };
      const excerpt = answer.body.trim().slice(0, ERROR_BODY_CHARS);
      return {
        ok: false,
        statusCode: answer.status,
        error: `HTTP ${answer.status}${excerpt ? `: ${excerpt}` : ''}`,
        retryable: isRetryableStatus(answer.status),
      };
    } catch (error) {
      // a refused address stays refused; anything else (timeout, refused or reset connection, DNS) may pass later
      return { ok: false, statusCode: null, error: reasonOf(error), retryable: !(error instanceof OutboundRefusedError) };
    }
  }

  /** The channel's URL, or why it cannot be called: plain http only where private targets are allowed at all. */
  private urlOf(target: ChannelTarget): URL | string {
    if (!target.url) return 'The channel has no URL';
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      return "The channel's URL is not a valid URL";
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return "The channel's URL is not an http(s) URL";
    if (url.protocol === 'http:' && this.config.ALLOW_PRIVATE_TARGETS.allowPrivate === false) {
      return `Refused to call ${url.hostname} over plain http: only https unless ALLOW_PRIVATE_TARGETS allows private targets`;
    }
    return url;
  }

  /**
   * All recipients in one message. The mail service keeps every message in its outbox first; without SMTP that is
   * all it does, which for a notification nobody will read there is a failure, and a final one.
   */
  private async email(target: ChannelTarget, notification: OutgoingNotification): Promise<Result> {
    if (target.recipients.length === 0) return final('The channel has no recipients');
    const { subject, text } = emailContent(describeNotification(notification));
    try {
      await this.mail.send({ to: target.recipients.join(', '), subject, text });
    } catch (error) {
      // a 5xx SMTP reply (recipient refused, message rejected) will not change; a 4xx or a lost connection may
      const code = (error as { responseCode?: number }).responseCode;
      return { ok: false, statusCode: null, error: reasonOf(error), retryable: !(code !== undefined && code >= 500) };
    }
    if (!this.mail.configured) return final(EMAIL_NOT_CONFIGURED);
    return { ok: true, statusCode: null, error: null, retryable: false };
  }
}
