import { createHmac, timingSafeEqual } from 'node:crypto';

/** A confirmation link works this long. */
export const CONFIRM_HOURS = 48;

type Purpose = 'confirm' | 'unsubscribe';

/**
 * The links in a subscriber's mails, signed with the hub's secret and bound to the subscription and its address:
 * nothing to store, nothing to look up, and a link for one address never works for another. A confirmation link
 * expires; an unsubscribe link works for as long as the subscription exists (RFC 8058 asks that it keep working).
 */
export class SubscriptionLinks {
  constructor(private readonly secret: string) {}

  sign(purpose: Purpose, subscription: { id: number; email: string }, now = Date.now()): string {
    const expires = purpose === 'confirm' ? Math.floor(now / 1000) + CONFIRM_HOURS * 3600 : 0;
    const body = `${subscription.id}.${expires}`;
    return `${body}.${this.mac(purpose, body, subscription.email)}`;
  }

  /** The subscription id a token names, once its address is known to match; null for a token that does not verify. */
  idOf(token: string): { id: number; expires: number } | null {
    const match = /^(\d{1,9})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    // ids are PostgreSQL integers: nine digits always fit
    return match ? { id: Number(match[1]), expires: Number(match[2]) } : null;
  }

  verify(purpose: Purpose, token: string, subscription: { id: number; email: string }, now = Date.now()): boolean {
    const parsed = this.idOf(token);
    if (!parsed || parsed.id !== subscription.id) return false;
    if (purpose === 'confirm' && parsed.expires * 1000 < now) return false;
    if (purpose === 'unsubscribe' && parsed.expires !== 0) return false;
    const expected = Buffer.from(this.mac(purpose, `${parsed.id}.${parsed.expires}`, subscription.email));
    const given = Buffer.from(token.slice(token.lastIndexOf('.') + 1));
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private mac(purpose: Purpose, body: string, email: string): string {
    return createHmac('sha256', this.secret).update(`status-subscription:${purpose}:${body}:${email.toLowerCase()}`).digest('base64url');
  }
}
