import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1:';

/**
 * Encrypts small secrets kept in the database (AES-256-GCM) with a key derived from a server secret for one
 * purpose, so a copy of the table alone does not give them away. `open` answers null for a text it did not seal
 * (a value from before, or sealed under another server secret).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serverSecret: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, 'circuit-breaker-hub', purpose, 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}${[iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.')}`;
  }

  open(text: string): string | null {
    if (!text.startsWith(VERSION)) return null;
    const [iv, tag, sealed] = text
      .slice(VERSION.length)
      .split('.')
      .map((part) => Buffer.from(part, 'base64url'));
    if (!iv || !tag || !sealed) return null;
    try {
      // a full 16-byte tag only: a truncated one would weaken the check
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: 16 });
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  /** Whether a text looks sealed (by this box or another): a plain value from before never does. */
  static isSealed(text: string): boolean {
    return text.startsWith(VERSION);
  }
}
