import type { ChannelType, NotificationEventType, WebhookBody } from '@cbh/contracts';

/** One notification as a channel sends it: the same id, type, time and data on every try. */
export interface OutgoingNotification {
  /** The delivery's id: the webhook body's `id` and its X-CBH-Delivery header. */
  deliveryId: string;
  type: NotificationEventType;
  occurredAt: string;
  data: WebhookBody['data'];
}

/** A channel as the sender needs it, its URL and secret already unsealed. */
export interface ChannelTarget {
  type: ChannelType;
  name: string;
  url: string | null;
  secret: string | null;
  recipients: string[];
}

/** What one try gave: the receiver's status and the time it took, or why it failed and whether to try again. */
export interface SendOutcome {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** 5xx, 408, 429, a timeout or a connection that failed: worth another try. A 4xx or a refused address is final. */
  retryable: boolean;
}
