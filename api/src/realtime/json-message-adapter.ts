import type { INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { Logger } from 'pino';
import { clientMessageSchema } from '@cbh/contracts';

/**
 * Plain WebSocket frames as JSON {type, data}. A frame that is not JSON or not a known message is
 * logged and ignored; the connection stays open.
 */
export function jsonMessageAdapter(app: INestApplicationContext, logger: Logger) {
  return new WsAdapter(app, {
    messageParser: (raw) => {
      let json: unknown;
      try {
        json = JSON.parse(String(raw));
      } catch {
        logger.warn({ frame: String(raw).slice(0, 200) }, 'ignored a /ws frame that is not JSON');
        return undefined;
      }
      const message = clientMessageSchema.safeParse(json);
      if (!message.success) {
        logger.warn({ issues: message.error.issues.map((i) => i.message) }, 'ignored an unknown /ws message');
        return undefined;
      }
      return { event: message.data.type, data: message.data.data };
    },
  });
}
