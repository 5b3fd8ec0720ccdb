import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../platform';

/** Who a message went to: a person (by account id) or a channel (by its id). */
export type AckRecipient = { kind: 'user'; id: string } | { kind: 'channel'; id: string };

/** The page a link opens (GET shows it, its button POSTs the code); served by the API, outside the SPA. */
export const ACKNOWLEDGE_PATH = '/api/public/acknowledge';

const CODE = /^(\d{1,9})\.([uc])([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/;

/**
 * The acknowledge links of an alert group's messages: signed with the hub's secret, bound to the group and to the
 * person or channel the message went to. Nothing is stored: the link is good while its group is open (the page
 * checks), and it names who acknowledged — the person it was sent to, or "via <channel>".
 */
@Injectable()
export class AcknowledgeLinks {
  private readonly secret: string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.secret = config.SESSION_SECRET;
  }

  code(groupId: number, to: AckRecipient): string {
    const body = `${groupId}.${to.kind === 'user' ? 'u' : 'c'}${to.id}`;
    return `${body}.${this.mac(body)}`;
  }

  url(groupId: number, to: AckRecipient): string {
    return `${this.config.PUBLIC_URL}${ACKNOWLEDGE_PATH}?code=${this.code(groupId, to)}`;
  }

  /** The group and recipient a code names, or null when it was altered. */
  verify(code: string): { groupId: number; to: AckRecipient } | null {
    const match = CODE.exec(code);
    if (!match) return null;
    const body = code.slice(0, code.lastIndexOf('.'));
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(match[4]!);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return { groupId: Number(match[1]), to: { kind: match[2] === 'u' ? 'user' : 'channel', id: match[3]! } };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(`alert-group-acknowledge:${body}`).digest('base64url');
  }
}
